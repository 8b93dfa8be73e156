import { data } from "react-router";
import type { NotFoundData } from "../../components/error-view.tsx";

/** Any other path under `/{locale}` answers 404 with the not-found page (spec §2). */
export function loader() {
  throw data<NotFoundData>({ notFound: "page" }, { status: 404 });
}

export default function NotFound() {
  return null;
}
