import { useEffect, useRef, useState, type ReactNode } from "react";
import { Form, Link, useNavigation, useRevalidator } from "react-router";
import { CONTENT_MODEL, type ContentKind } from "../../../model/model.ts";
import { useTranslation } from "../../hooks.ts";
import type { FormValues } from "../../data/admin.server.ts";
import { AiAssistant } from "./ai-assistant.tsx";
import { ConflictPanel, conflictDetailsOf } from "./conflict.tsx";
import { conflictOf, Field, FormFooter, useItemFormValues } from "./fields.tsx";
import { HistoryPanel } from "./history.tsx";
import { LifecyclePanel } from "./lifecycle.tsx";
import { clearSubmittedInput, RestoredNotice, unsavedKey, useUnsavedInput } from "./unsaved.tsx";
import { AutosaveStatusLine, useAutosave, useRefocusAfterMove } from "./autosave.tsx";
import { VersionTabs } from "./version-tabs.tsx";
import { ErrorSummary, keepCustomValidity } from "./error-summary.tsx";
import type { ContentLocale } from "../../../model/model.ts";
import { PublishControls, PublishTimeFields } from "./publish-controls.tsx";

/** What an item form's route loads: the item's values (both versions) and why AI is off, if it is. */
export interface ItemFormLoaderData {
  current: FormValues;
  aiUnavailable: string | null;
}

/** What a refused save answers: the typed values, field errors, a form error, a conflict. */
interface ItemFormActionData {
  values?: Record<string, string>;
  errors?: Partial<Record<string, string>>;
  formError?: string | null;
  conflict?: unknown;
  /** An autosave's answer (the action's type includes it; a form never receives it: it posts elsewhere). */
  autosaved?: unknown;
  /** A publish refused without the dialog: the unreviewed translations it would have held back (issue #29). */
  unreviewed?: string[];
}

/** The texts of a kind's form: its list's path and its message keys (`admin.<adminPath>.*`). */
function textsOf(kind: ContentKind) {
  const { adminPath } = CONTENT_MODEL[kind];
  const key = (name: string) => `admin.${adminPath}.${name}`;
  return {
    list: `/admin/${adminPath}`,
    back: key("back"),
    edit: key("edit"),
    new: key("new"),
    slug: key("slug"),
    create: key("createSubmit"),
  };
}

/**
 * The state of an item's form: its values (the typed ones after a refused save), their setters (the slug
 * follows the title until edited), unsaved input kept across reloads (issue #16 item 5), the AI's busy flag.
 */
export function useItemForm(
  kind: ContentKind,
  loaderData: ItemFormLoaderData,
  actionData: ItemFormActionData | undefined,
  itemId: string | undefined,
) {
  const initial = actionData?.values ?? loaderData.current.values;
  const form = useItemFormValues(initial, CONTENT_MODEL[kind].title, kind);
  const { current } = loaderData;
  // Saving stays on the edit page (issue #29 item 3): once it lands there, the form shows what is stored now.
  // (A form submission's navigation ending without a refusal; an autosave is no navigation.)
  // Anything typed while the save was on its way is kept.
  const navigation = useNavigation().state;
  const submitted = useRef<Record<string, string> | null>(null);
  useEffect(() => {
    if (navigation === "submitting") submitted.current = form.values;
    const sent = submitted.current;
    if (navigation !== "idle" || !sent) return;
    submitted.current = null;
    if (actionData) return;
    form.setValues((typed) => (sameValues(typed, sent) ? current.values : typed));
    clearSubmittedInput(kind, unsavedKey(kind, itemId));
  }, [navigation]);
  // A new item saved (or autosaved) lands on its edit page: its input kept under "new" is stored now.
  useEffect(() => {
    if (itemId) clearSubmittedInput(kind, unsavedKey(kind, undefined));
  }, [itemId]);
  const formRef = useRef<HTMLFormElement>(null);
  const autosave = useAutosave({
    kind,
    itemId,
    // Drafts only, never a published or scheduled item: autosave must never change what guests see.
    enabled: !current.readOnly && (current.state === "draft" || (!itemId && current.state === null)),
    values: form.values,
    opened: current.values,
    formRef,
    beforeMove: () => unsaved.markSubmitted(),
  });
  useRefocusAfterMove();
  const unsaved = useUnsavedInput(
    unsavedKey(kind, itemId),
    current.values,
    form.values,
    form.setValues,
    autosave.saved,
  );
  const [generating, setGenerating] = useState(false);
  // The language tab shown (issue #29 items 6, 8): AI drafting fills it; a new item starts in the admin's language.
  const [tab, setTab] = useState<ContentLocale>(loaderData.current.locale);
  return {
    ...form,
    unsaved,
    autosave,
    formRef,
    generating,
    setGenerating,
    tab,
    setTab,
    errors: actionData?.errors ?? {},
  };
}

/** Whether two forms' values are the same (a missing value is an empty one). */
function sameValues(a: Record<string, string>, b: Record<string, string>): boolean {
  return Object.keys({ ...a, ...b }).every((k) => (a[k] ?? "") === (b[k] ?? ""));
}

/** The form state `ItemForm` renders (`useItemForm`'s). */
export type ItemFormState = ReturnType<typeof useItemForm>;

/**
 * The frame of a venture's or a post's form (spec §2, issues #15–#17): back link, title, lifecycle panel, AI
 * assistant, the restored-input notice, the language version tabs, the shared fields (slug, then `children`:
 * the kind's own), the footer with save and lifecycle buttons, and the history of an existing item.
 */
export function ItemForm(props: {
  kind: ContentKind;
  form: ItemFormState;
  loaderData: ItemFormLoaderData;
  actionData: ItemFormActionData | undefined;
  itemId: string | undefined;
  children: ReactNode;
}) {
  const { kind, form, loaderData, actionData, itemId } = props;
  const { t } = useTranslation();
  const saving = useNavigation().state === "submitting";
  const texts = textsOf(kind);
  const conflict = conflictOf(actionData);
  // "Keep theirs" resolves the conflict of this answer: their version is in the form, the page's data reloaded.
  const details = conflictDetailsOf(actionData);
  // Said from "Keep theirs" until the next save is sent. Not tied to the answer it resolved: the page's data
  // reloaded right after it drops that answer too (React Router clears action data on a revalidation), which hid
  // the line a moment after it appeared.
  const [kept, setKept] = useState(false);
  useEffect(() => {
    if (saving) setKept(false);
  }, [saving]);
  const revalidator = useRevalidator();
  const { current } = loaderData;
  const readOnly = current.readOnly;
  return (
    <div className="max-w-3xl">
      <Link to={texts.list} className="text-sm text-mist hover:text-gold">
        <span aria-hidden className="inline-block rtl:-scale-x-100">
          ←
        </span>{" "}
        {t(texts.back)}
      </Link>
      <h1 className="mt-4 text-3xl font-bold">{itemId ? t(texts.edit) : t(texts.new)}</h1>
      {readOnly && (
        // Said before any typing (issue #28 item 3): the fields below cannot be changed, nothing can be saved.
        <p role="note" data-read-only={readOnly} className="mt-4 rounded border border-gold/40 bg-gold/10 p-3 text-sm">
          {t(`admin.readOnly.${readOnly}`)}
        </p>
      )}
      {current.state && !readOnly && (
        <LifecyclePanel
          kind={kind}
          itemId={itemId ?? ""}
          state={current.state}
          publishAt={current.publishAt}
          timeZone={current.timeZone}
        />
      )}
      {!readOnly && (
        <div className="mt-6">
          <AiAssistant
            kind={kind}
            unavailable={loaderData.aiUnavailable}
            onBusy={form.setGenerating}
            onDraft={form.applyDraft}
            locale={form.tab}
            routeLocale={current.locale}
            values={form.values}
            setValues={form.setValues}
          />
        </div>
      )}
      {form.unsaved.restoredAt !== null && !readOnly && (
        <RestoredNotice at={form.unsaved.restoredAt} onDiscard={form.unsaved.discard} />
      )}
      <ErrorSummary kind={kind} errors={form.errors} routeLocale={current.locale} />
      {/* The server checks every field and answers in the admin's language (issue #29 item 7): no browser bubbles. */}
      <Form
        method="post"
        encType="multipart/form-data"
        ref={form.formRef}
        className="mt-8 space-y-5"
        noValidate
        onSubmit={(event) => {
          if (!keepCustomValidity(event)) return;
          form.unsaved.markSubmitted();
        }}
      >
        <fieldset disabled={Boolean(readOnly)} className="min-w-0 space-y-5">
          <VersionTabs
            kind={kind}
            locale={current.locale}
            others={current.others}
            otherVersions={conflict?.otherVersions}
            values={form.values}
            errors={form.errors}
            set={form.set}
            setTitle={form.setTitle}
            setValues={form.setValues}
            aiUnavailable={loaderData.aiUnavailable}
            onBusy={form.setGenerating}
            selected={form.tab}
            onSelect={form.setTab}
          />
          <h2 className="border-t border-line pt-5 text-sm font-semibold text-mist">{t("admin.languages.shared")}</h2>
          <Field
            name="slug"
            label={t(texts.slug)}
            hint={t("admin.slugHint")}
            required
            ltr
            value={form.values.slug}
            error={form.errors.slug}
            onChange={form.setSlug}
          />
          {props.children}
          {current.state !== "published" && (
            <PublishTimeFields
              values={form.values}
              set={form.set}
              timeZone={current.timeZone}
              error={form.errors.publishAt}
            />
          )}
        </fieldset>
        {!readOnly && (
          <FormFooter
            error={kept ? null : actionData?.formError}
            state={current.state}
            version={conflict?.version ?? current.version ?? null}
            conflict={
              kept ? (
                <p role="status" className="rounded-lg border border-line p-3 text-sm">
                  {t("admin.conflict.kept")}
                </p>
              ) : (
                details && (
                  <ConflictPanel
                    kind={kind}
                    details={details}
                    values={form.values}
                    routeLocale={current.locale}
                    saving={saving}
                    onKeepTheirs={(theirs) => {
                      form.setValues({ ...form.values, ...theirs });
                      setKept(true);
                      void revalidator.revalidate();
                    }}
                  />
                )
              )
            }
            busy={form.generating}
            saving={saving}
            label={itemId ? t("admin.saveChanges") : t(texts.create)}
            controls={
              <PublishControls
                kind={kind}
                state={current.state}
                locale={current.locale}
                others={current.others.map((o) => o.locale)}
                values={form.values}
                timeZone={current.timeZone}
                disabled={form.generating}
                saving={saving}
                unreviewed={actionData?.unreviewed}
              />
            }
          />
        )}
        {!readOnly && <AutosaveStatusLine status={form.autosave.status} timeZone={current.timeZone} />}
      </Form>
      {itemId && !readOnly && (
        <HistoryPanel
          kind={kind}
          editId={itemId}
          versions={[
            { locale: current.locale, id: itemId, updatedAt: current.version },
            ...current.others.flatMap((o) => (o.id ? [{ locale: o.locale, id: o.id, updatedAt: o.version }] : [])),
          ]}
        />
      )}
    </div>
  );
}
