import { useLocation } from "react-router";
import { pageOf } from "../root.tsx";
import { renderNode } from "../tree.tsx";

/** A captured page: the page route's loader data from memory, and the body's markup as React elements. */
export function loader({ request }: { request: Request }) {
  return pageOf(new URL(request.url).pathname).data.page;
}

export default function Page() {
  return <>{pageOf(useLocation().pathname).body.map(renderNode)}</>;
}
