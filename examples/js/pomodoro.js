// A pomodoro timer, the JavaScript twin of examples/plugins/pomodoro: click
// to start a stretch of work, click again to pause or go on; right-click
// for a popup that starts over or skips to the next phase. When the work
// is done a break follows, shown urgent, then work again. It needs no
// capability beyond the clock, and asks to be refreshed on the next
// second only while it runs.
//
//   { "Plugin": { "enable": true, "path": "pomodoro.js",
//                 "config": { "work_minutes": 25, "break_minutes": 5 } } }

import { now } from "obi:widget/clock@0.1.6";

const MINUTE_MS = 60_000;

let workMs = 25 * MINUTE_MS;
let breakMs = 5 * MINUTE_MS;
let phase = "work";
/** When the phase ends while running; undefined while paused. */
let endsAtMs;
/** What is left of the phase while paused. */
let leftMs = workMs;
let finished = 0;
let popupOpen = false;

function nowMs() {
  const { seconds, nanoseconds } = now();
  return Number(seconds) * 1000 + Math.floor(nanoseconds / 1e6);
}

function lengthOf(which) {
  return which === "work" ? workMs : breakMs;
}

/** Moves on to the break (or back to work) once a phase has ended. */
function advance(at) {
  while (endsAtMs !== undefined && endsAtMs <= at) {
    if (phase === "work") finished += 1;
    phase = phase === "work" ? "break" : "work";
    endsAtMs += Math.max(lengthOf(phase), 1000);
  }
}

/** @returns {import("obi:widget/view").Piece} */
function text(val) {
  return { tag: "text", val };
}

/** @returns {import("obi:widget/popup").Block} */
function popupLine(key, content, takes = {}) {
  return { tag: "line", val: { key, content, emphasis: "normal", takes } };
}

/** @returns {import("obi:widget/popup").Popup} */
function popup() {
  const other = phase === "work" ? "break" : "work";
  return {
    itemKey: "pomodoro",
    blocks: [
      popupLine("title", { tag: "label", val: [text(`Pomodoro: ${finished} finished today`)] }),
      { tag: "separator" },
      popupLine("restart", { tag: "button", val: [text("Start over")] }, { primaryClick: true }),
      popupLine("skip", { tag: "button", val: [text(`Skip to ${other}`)] }, { primaryClick: true }),
    ],
  };
}

/** @type {import("obi:widget/guest").Guest} */
export const guest = {
  init(configJson, bar) {
    const config = JSON.parse(configJson) ?? {};
    const work = config.work_minutes ?? 25;
    const rest = config.break_minutes ?? 5;
    if (!Number.isInteger(work) || work < 1) throw new Error("work_minutes must be a whole number, at least 1");
    if (!Number.isInteger(rest) || rest < 0) throw new Error("break_minutes must be a whole number, at least 0");
    workMs = work * MINUTE_MS;
    breakMs = rest * MINUTE_MS;
    leftMs = workMs;
    // Refreshed after clicks, and while running on the second it asks for.
    return { intervalMs: 0n, alignToWallClock: false };
  },

  refresh() {
    const at = nowMs();
    advance(at);
    const running = endsAtMs !== undefined;
    const left = running ? endsAtMs - at : leftMs;
    // Shown rounded up: "24:59" for the whole of the first second.
    const seconds = Math.ceil(left / 1000);
    const label = `${String(Math.floor(seconds / 60)).padStart(2, "0")}:${String(seconds % 60).padStart(2, "0")}`;
    /** @type {[import("obi:widget/view").Emphasis, string]} */
    const [emphasis, tooltip] = !running
      ? ["muted", "Paused: click to go on, right-click for more"]
      : phase === "work"
        ? ["normal", "Working: click to pause"]
        : ["urgent", "Break: click to pause"];
    const untilNextSecond = ((left % 1000) + 1000) % 1000 || 1000;
    return {
      view: {
        items: [{ key: "pomodoro", pieces: [text(label)], emphasis, takes: { primaryClick: true, secondaryClick: true }, tooltip }],
      },
      nextRefreshMs: running ? untilNextSecond : undefined,
      popup: popupOpen ? popup() : undefined,
    };
  },

  onInput(itemKey, event, pointer) {
    const at = nowMs();
    advance(at);
    if (event.tag === "primary-click") {
      if (endsAtMs === undefined) {
        endsAtMs = at + leftMs;
      } else {
        leftMs = endsAtMs - at;
        endsAtMs = undefined;
      }
    } else if (event.tag === "secondary-click") {
      popupOpen = true;
    }
  },

  onPopupInput(itemKey, cellKey, event) {
    if (cellKey === "restart") {
      phase = "work";
      endsAtMs = undefined;
      leftMs = workMs;
    } else if (cellKey === "skip") {
      const at = nowMs();
      advance(at);
      phase = phase === "work" ? "break" : "work";
      if (endsAtMs === undefined) leftMs = lengthOf(phase);
      else endsAtMs = at + lengthOf(phase);
    }
    popupOpen = false;
  },

  onPopupClosed(itemKey) {
    popupOpen = false;
  },

  onRefreshRequested() {},

  configSchema() {
    return JSON.stringify({
      type: "object",
      properties: {
        work_minutes: { type: "integer", minimum: 1, default: 25, description: "Minutes of a stretch of work." },
        break_minutes: { type: "integer", minimum: 0, default: 5, description: "Minutes of the break after it." },
      },
      additionalProperties: false,
    });
  },
};
