import { Outlet } from "react-router";
import { pageOf } from "../root.tsx";

/** The locale layout: the project's layout loader data, from memory. */
export function loader({ request }: { request: Request }) {
  return pageOf(new URL(request.url).pathname).data.layout;
}

export default function Locale() {
  return <Outlet />;
}
