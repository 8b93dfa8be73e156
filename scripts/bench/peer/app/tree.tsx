/**
 * Markup captured from the project's pages as a JSON element tree, rendered back to React elements: internal
 * links as React Router's `<Link>`/`<NavLink>` (the project renders 45 of them on `/en`), `<style>` and
 * JSON-LD `<script>` bodies as raw HTML, everything else as plain elements with props prepared ahead.
 */
import { createElement, type ReactNode } from "react";
import { Link, NavLink } from "react-router";

/** An element: tag (or "Link"/"NavLink"), React props, children; `h`: raw inner HTML (style, JSON-LD). */
export interface ElementNode {
  t: string;
  a: Record<string, unknown>;
  c: TreeNode[];
  h?: string;
}
/** Text or an element. */
export type TreeNode = string | ElementNode;

/** One captured page: its `<head>` children (without React Router's), its `<body>` children, its loader data. */
export interface CapturedPage {
  head: TreeNode[];
  body: TreeNode[];
  bodyProps: Record<string, unknown>;
  htmlProps: Record<string, unknown>;
  /** Loader data by route: the root's, the locale layout's, the page's. */
  data: { root: unknown; layout: unknown; page: unknown };
}

/** Every captured page by path (`/en`, `/en/blog/<slug>`). */
export interface Captured {
  pages: Record<string, CapturedPage>;
}

const COMPONENTS: Record<string, unknown> = { Link, NavLink };

/** The React elements of `node`. */
export function renderNode(node: TreeNode): ReactNode {
  if (typeof node === "string") return node;
  const type = (COMPONENTS[node.t] ?? node.t) as string;
  if (node.h !== undefined) return createElement(type, { ...node.a, dangerouslySetInnerHTML: { __html: node.h } });
  return createElement(type, node.a, ...node.c.map(renderNode));
}
