import { SMTPServer } from "smtp-server";
import type { AddressInfo } from "node:net";

/** One mail as the test SMTP server received it, with the headers and text body decoded. */
export interface ReceivedMail {
  from: string;
  to: string[];
  headers: Map<string, string>;
  subject: string;
  body: string;
  raw: string;
}

/** RFC 2047 encoded words (`=?UTF-8?B?…?=` / `?Q?`) to text. */
function decodeWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, "?==?")
    .replace(/=\?([^?]+)\?([BbQq])\?([^?]*)\?=/g, (_m, _charset: string, kind: string, text: string) =>
      kind.toUpperCase() === "B"
        ? Buffer.from(text, "base64").toString("utf8")
        : Buffer.from(
            text
              .replace(/_/g, " ")
              .replace(/=([0-9A-F]{2})/gi, (_x, h: string) => String.fromCharCode(parseInt(h, 16))),
            "latin1",
          ).toString("utf8"),
    );
}

/** Parse a single-part message (nodemailer's text-only or html-only mail). */
function parseMail(raw: string): { headers: Map<string, string>; body: string } {
  const split = raw.indexOf("\r\n\r\n");
  const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, " ");
  const headers = new Map<string, string>();
  for (const line of head.split("\r\n")) {
    const colon = line.indexOf(":");
    headers.set(line.slice(0, colon).toLowerCase(), decodeWords(line.slice(colon + 1).trim()));
  }
  const encoded = raw.slice(split + 4);
  const encoding = (headers.get("content-transfer-encoding") ?? "7bit").toLowerCase();
  const body =
    encoding === "base64"
      ? Buffer.from(encoded.replace(/\s+/g, ""), "base64").toString("utf8")
      : encoding === "quoted-printable"
        ? Buffer.from(
            encoded
              .replace(/=\r\n/g, "")
              .replace(/=([0-9A-F]{2})/gi, (_x, h: string) => String.fromCharCode(parseInt(h, 16))),
            "latin1",
          ).toString("utf8")
        : encoded;
  return { headers, body: body.replace(/\r\n$/, "") };
}

/** A real SMTP server (nodemailer's `smtp-server`) on 127.0.0.1 that keeps what it receives. */
export interface SmtpSink {
  port: number;
  mails: ReceivedMail[];
  /** Stop accepting connections (the port is then refused). */
  stop(): Promise<void>;
  /** Listen again on the same port. */
  restart(): Promise<void>;
  /** Hold each mail's final reply from now on (the sender waits); `held()` counts the mails waiting. */
  hold(): void;
  held(): number;
  /** Answer the held mails with a temporary failure (nothing is kept) and stop holding. */
  refuseHeld(): void;
}

/** Start the sink on `port` (0 = a free one). No TLS, authentication optional. */
export async function startSmtpSink(port = 0): Promise<SmtpSink> {
  const mails: ReceivedMail[] = [];
  let holding = false;
  const waiting: ((error?: Error) => void)[] = [];
  let server: SMTPServer;
  const listen = async (onPort: number): Promise<number> => {
    server = new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS"],
      logger: false,
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on("data", (chunk: Buffer) => chunks.push(chunk));
        stream.on("end", () => {
          if (holding) {
            waiting.push(callback);
            return;
          }
          const raw = Buffer.concat(chunks).toString("latin1");
          const { headers, body } = parseMail(Buffer.concat(chunks).toString("utf8"));
          mails.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
            to: session.envelope.rcptTo.map((r) => r.address),
            headers,
            subject: headers.get("subject") ?? "",
            body,
            raw,
          });
          callback();
        });
      },
    });
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(onPort, "127.0.0.1", () => resolve());
    });
    return (server.server.address() as AddressInfo).port;
  };
  const bound = await listen(port);
  return {
    port: bound,
    mails,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
    restart: async () => {
      await listen(bound);
    },
    hold: () => {
      holding = true;
    },
    held: () => waiting.length,
    refuseHeld: () => {
      holding = false;
      for (const reply of waiting.splice(0)) reply(Object.assign(new Error("Try again later"), { responseCode: 451 }));
    },
  };
}
