/**
 * A same-origin browser stand-in over real HTTP (tests and the fault figures): sends the site's Origin on
 * form posts and keeps the session cookie.
 */

export interface Reply {
  status: number;
  headers: Headers;
  text: string;
  location: string | null;
}

/** A same-origin browser stand-in: sends the site's Origin on posts and keeps the session cookie. */
export class Visitor {
  cookie = "";

  constructor(readonly origin: string) {}

  async request(
    pathname: string,
    init: RequestInit & { form?: Record<string, string> | FormData } = {},
  ): Promise<Reply> {
    const headers = new Headers(init.headers);
    if (this.cookie && !headers.has("Cookie")) headers.set("Cookie", this.cookie);
    let body = init.body;
    if (init.form) {
      body = init.form instanceof FormData ? init.form : new URLSearchParams(init.form);
      if (!headers.has("Origin")) headers.set("Origin", this.origin);
    }
    const response = await fetch(this.origin + pathname, { ...init, headers, body, redirect: "manual" });
    const setCookie = response.headers.get("set-cookie");
    const session = setCookie && /(?:__Host-)?studio_session=([^;]*)/.exec(setCookie);
    if (session) this.cookie = session[1] ? `${session[0].split("=")[0]}=${session[1]}` : "";
    return {
      status: response.status,
      headers: response.headers,
      text: await response.text(),
      location: response.headers.get("location"),
    };
  }

  /** Registers through the login page's form. */
  register(email: string, password = "correct horse battery", name = email.split("@")[0]!): Promise<Reply> {
    return this.request("/en/login", {
      method: "POST",
      form: { intent: "register", name, email, password, redirectTo: "/admin" },
    });
  }

  /** Signs in through the login page's form. */
  login(email: string, password = "correct horse battery", redirectTo = "/admin"): Promise<Reply> {
    return this.request("/en/login", { method: "POST", form: { intent: "login", email, password, redirectTo } });
  }
}
