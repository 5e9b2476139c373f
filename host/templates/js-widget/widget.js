// A widget for the Obi bar: says hello, and counts the clicks it gets.
import { now, format } from "obi:widget/clock@0.1.8";

let name = "world";
let clicks = 0;

/** @type {import("obi:widget/guest").Guest} */
export const guest = {
  init(configJson) {
    name = JSON.parse(configJson)?.name ?? "world";
    // Refreshed every minute, and after each click.
    return { intervalMs: 60_000n, alignToWallClock: false };
  },

  refresh() {
    const greeting = `Hello, ${name} (${clicks} clicks)`;
    const tooltip = `said at ${format(now(), "%H:%M")}`;
    return {
      view: {
        items: [{ key: "hello", pieces: [{ tag: "text", val: greeting }], emphasis: "normal", takes: { primaryClick: true }, tooltip }],
      },
    };
  },

  onInput(itemKey, event) {
    if (event.tag === "primary-click") clicks += 1;
  },
};
