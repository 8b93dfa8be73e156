/**
 * The inbox's e-mails, in English and Arabic (issue #31 item 3): the team's notice of a submission and the
 * sender's confirmation. Plain text (Appwrite Messaging `html: false`), so nothing a visitor wrote is markup.
 * The confirmation quotes nothing the visitor wrote: the form could otherwise send anyone's words to any
 * address (OWASP "Abuse of Functionality": contact forms as spam relays).
 */
import type { InboxKind } from "../../model/inbox.ts";

/** The mails' languages (the site's: `model/locales.ts`); anything else reads as English. */
export type MailLocale = "en" | "ar";

/** `locale` when it is a mail language, else English. */
export function mailLocale(locale: string): MailLocale {
  return locale === "ar" ? "ar" : "en";
}

const KIND_NAMES: Record<"en", Record<InboxKind, string>> = {
  en: { communityApplication: "community application", contactMessage: "contact message" },
};
/** "A new <kind>" in Arabic, whose adjective agrees with the noun (رسالة is feminine, طلب masculine). */
const NEW_AR: Record<InboxKind, { subject: string; arrived: string }> = {
  communityApplication: {
    subject: "طلب انضمام جديد إلى المجتمع",
    arrived: "وصل طلب انضمام جديد إلى المجتمع إلى صندوق الوارد في الموقع.",
  },
  contactMessage: {
    subject: "رسالة تواصل جديدة",
    arrived: "وصلت رسالة تواصل جديدة إلى صندوق الوارد في الموقع.",
  },
};
const LANGUAGE_NAMES: Record<MailLocale, Record<MailLocale, string>> = {
  en: { en: "English", ar: "Arabic" },
  ar: { en: "الإنجليزية", ar: "العربية" },
};

/** What the team's notice says of one submission. */
export interface NoticeFacts {
  kind: InboxKind;
  locale: string;
  name: string;
  email: string;
  text: string;
  /** When it was received, ISO 8601. */
  receivedAt: string;
  /** The submission in the admin's inbox (an absolute URL). */
  link: string;
}

/**
 * The team's notice (English, then Arabic): the subject names the kind and the language only, never what
 * the visitor wrote (issue #31 item 3); the body has the sender, the text and the link to the inbox.
 */
export function teamNotice(facts: NoticeFacts): { subject: string; content: string } {
  const locale = mailLocale(facts.locale);
  const subject = `New ${KIND_NAMES.en[facts.kind]} (${LANGUAGE_NAMES.en[locale]}) · ${NEW_AR[facts.kind].subject} (${LANGUAGE_NAMES.ar[locale]})`;
  const content = [
    `A new ${KIND_NAMES.en[facts.kind]} reached the site's inbox.`,
    `Language: ${LANGUAGE_NAMES.en[locale]}`,
    `From: ${facts.name} <${facts.email}>`,
    `Received: ${facts.receivedAt}`,
    "",
    facts.text,
    "",
    `Open it in the inbox: ${facts.link}`,
    "",
    "—",
    NEW_AR[facts.kind].arrived,
    `اللغة: ${LANGUAGE_NAMES.ar[locale]}`,
    `الرابط في صندوق الوارد: ${facts.link}`,
  ].join("\n");
  return { subject, content };
}

const CONFIRMATIONS: Record<MailLocale, Record<InboxKind, { subject: string; content: string }>> = {
  en: {
    communityApplication: {
      subject: "We received your application",
      content: "Thank you! We've received your submission and will be in touch soon with details about our community.",
    },
    contactMessage: {
      subject: "We received your message",
      content: "Thank you for your message! We will get back to you shortly.",
    },
  },
  ar: {
    communityApplication: {
      subject: "تلقّينا طلبك",
      content: "شكرًا لك! تلقّينا طلبك وسنتواصل معك قريبًا بتفاصيل عن مجتمعنا.",
    },
    contactMessage: {
      subject: "تلقّينا رسالتك",
      content: "شكرًا لرسالتك! سنعود إليك قريبًا.",
    },
  },
};

const IGNORE: Record<MailLocale, string> = {
  en: "If you did not write to us, you can ignore this e-mail.",
  ar: "إن لم تكن أنت من راسلنا، فتجاهل هذه الرسالة.",
};

/** The sender's confirmation in the language of the page they used (spec §8's success texts). */
export function senderConfirmation(kind: InboxKind, locale: string): { subject: string; content: string } {
  const language = mailLocale(locale);
  const { subject, content } = CONFIRMATIONS[language][kind];
  return { subject, content: `${content}\n\n${IGNORE[language]}` };
}

/** The subject a reply starts with: `Re: ` and the confirmation's subject, in the sender's language. */
export function replySubject(kind: InboxKind, locale: string): string {
  const language = mailLocale(locale);
  return `${language === "ar" ? "رد: " : "Re: "}${CONFIRMATIONS[language][kind].subject}`;
}
