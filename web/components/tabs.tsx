import { useState } from "react";
import { CheckIcon } from "./icons.tsx";
import { useTabList } from "./tab-list.ts";

export interface ApproachTab {
  label: string;
  title: string;
  text: string;
  points: string[];
}

/**
 * The services page's approach tabs (spec §2, §4: a tab chosen by index, the first by default), following
 * the WAI-ARIA tabs pattern (`useTabList`: arrow keys move in the reading direction, Home/End jump). Each tab is also a
 * link to `?tab=N`, so without JavaScript the server renders the chosen tab.
 */
export function Tabs({ tabs, initial, label }: { tabs: ApproachTab[]; initial: number; label: string }) {
  const [selected, setSelected] = useState(initial);
  const tabList = useTabList(tabs.length, selected, setSelected);

  return (
    <div>
      <div
        role="tablist"
        aria-label={label}
        className="flex flex-col gap-1.5 rounded-2xl border border-line bg-panel p-1.5 sm:flex-row"
      >
        {tabs.map((tab, i) => (
          <a
            key={tab.label}
            {...tabList.tab(i)}
            href={`?tab=${i + 1}#approach`}
            onClick={(event) => {
              event.preventDefault();
              setSelected(i);
              event.currentTarget.focus();
            }}
            className="flex-1 rounded-xl px-4 py-3 text-center text-sm font-semibold whitespace-nowrap text-mist transition-colors hover:text-white aria-selected:bg-gold aria-selected:text-ink"
          >
            {tab.label}
          </a>
        ))}
      </div>
      {tabs.map((tab, i) => (
        <div
          key={tab.label}
          {...tabList.panel(i)}
          tabIndex={0}
          className="mt-6 grid gap-8 rounded-3xl border border-line bg-panel p-6 sm:p-10 lg:grid-cols-2"
        >
          <div>
            <h3 className="text-2xl font-bold text-gold-soft">{tab.title}</h3>
            <p className="mt-4 leading-relaxed text-mist">{tab.text}</p>
          </div>
          <ul className="space-y-3">
            {tab.points.map((point) => (
              <li key={point} className="flex items-start gap-3 rounded-xl bg-ink/50 p-4">
                <CheckIcon className="mt-0.5 size-5 text-gold" />
                <span>{point}</span>
              </li>
            ))}
          </ul>
        </div>
      ))}
    </div>
  );
}
