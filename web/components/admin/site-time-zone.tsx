import { Form } from "react-router";
import { useTranslation } from "../../hooks.ts";

/**
 * The site's time zone, on the owner's Team page (issue #29 item 2): a list of the IANA zones the server
 * knows, each with its offset now as the server's loader labelled it (`zones`: id and label), posted as
 * `intent=timeZone`. Publish and schedule times in the admin, its
 * flash messages and lists, and `studio`'s plan are read and written in it.
 */
export function SiteTimeZoneForm(props: {
  zone: string;
  zones: readonly { id: string; label: string }[];
  busy: boolean;
}) {
  const { t } = useTranslation();
  return (
    <section aria-labelledby="time-zone-title">
      <h2 id="time-zone-title" className="mt-8 text-xl font-semibold">
        {t("admin.team.timeZoneTitle")}
      </h2>
      <p id="time-zone-hint" className="mt-2 text-sm text-mist">
        {t("admin.team.timeZoneHint")}
      </p>
      <Form method="post" className="mt-3 flex flex-wrap items-end gap-3">
        <input type="hidden" name="intent" value="timeZone" />
        <label className="flex min-w-0 flex-col gap-1 text-sm">
          {t("admin.team.timeZone")}
          <select
            name="timeZone"
            defaultValue={props.zone}
            dir="ltr"
            aria-describedby="time-zone-hint"
            className="max-w-full rounded-lg border border-line bg-panel px-3 py-2"
          >
            {props.zones.map((zone) => (
              <option key={zone.id} value={zone.id}>
                {zone.label}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" disabled={props.busy} className="rounded-lg bg-gold px-4 py-2 font-semibold text-ink">
          {t("admin.team.timeZoneSave")}
        </button>
      </Form>
    </section>
  );
}
