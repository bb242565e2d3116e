// The report's three charts, drawn as plain SVG. Each is role="img" and labelled by its caption;
// the numbers it draws are in the table beside it (report.js). Coordinates are in viewBox units:
// the SVG scales to its column's width, from a 390 px phone to a desktop.
import { svg } from "../shared/dom.js";
import * as format from "./format.js";

/** A step of 1, 2 or 5 × 10^k giving about `parts` intervals up to max. */
function niceStep(max, parts) {
  const rough = Math.max(max / parts, 1);
  const power = 10 ** Math.floor(Math.log10(rough));
  for (const factor of [1, 2, 5, 10]) if (factor * power >= rough) return factor * power;
  return 10 * power;
}

/** The histogram of score_distribution: one bar per bucket, its count above it. */
export function histogram(buckets, labelledBy) {
  const width = 320;
  const height = 200;
  const margin = { left: 30, right: 8, top: 16, bottom: 36 };
  const plotWidth = width - margin.left - margin.right;
  const plotHeight = height - margin.top - margin.bottom;
  const maxCount = Math.max(0, ...buckets.map((b) => b.count));
  const step = niceStep(maxCount, 4);
  const top = Math.max(step, Math.ceil(maxCount / step) * step);
  const y = (value) => margin.top + plotHeight * (1 - value / top);
  const band = plotWidth / Math.max(buckets.length, 1);

  const root = svg("svg", { viewBox: `0 0 ${width} ${height}`, role: "img", "aria-labelledby": labelledBy, class: "chart" });
  for (let tick = 0; tick <= top; tick += step) {
    root.append(
      svg("line", { class: "grid", x1: margin.left, x2: width - margin.right, y1: y(tick), y2: y(tick) }),
      svg("text", { class: "tick", x: margin.left - 4, y: y(tick) + 3, "text-anchor": "end" }, String(tick)),
    );
  }
  buckets.forEach((bucket, i) => {
    const x = margin.left + i * band;
    const barHeight = plotHeight * (bucket.count / top);
    root.append(svg("rect", { class: "bar", x: x + 2, width: band - 4, y: y(bucket.count), height: barHeight }));
    if (bucket.count > 0)
      root.append(
        svg("text", { class: "value", x: x + band / 2, y: y(bucket.count) - 3, "text-anchor": "middle" }, String(bucket.count)),
      );
    // Every other edge is labelled: all eleven do not fit a phone's width.
    if (i % 2 === 0)
      root.append(
        svg("text", { class: "tick", x, y: height - margin.bottom + 13, "text-anchor": "middle" }, String(bucket.from)),
      );
  });
  const last = buckets.at(-1);
  if (last)
    root.append(
      svg(
        "text",
        { class: "tick", x: width - margin.right, y: height - margin.bottom + 13, "text-anchor": "end" },
        String(last.to),
      ),
    );
  root.append(
    svg("line", { class: "axis", x1: margin.left, x2: width - margin.right, y1: y(0), y2: y(0) }),
    svg("text", { class: "axis-title", x: margin.left + plotWidth / 2, y: height - 4, "text-anchor": "middle" }, "Score (%)"),
  );
  return root;
}

/** Where §14's flags start: difficulty below 0.2 or above 0.95, discrimination below 0 or 0.2. */
export const THRESHOLDS = { tooHard: 0.2, tooEasy: 0.95, negative: 0, low: 0.2 };

/**
 * Difficulty (x, 0–1) against discrimination (y, −1–1), one labelled point per item that has
 * both, with the flag thresholds drawn as dashed lines over shaded flag zones.
 */
export function scatter(points, labelledBy) {
  const width = 320;
  const height = 290;
  const margin = { left: 42, right: 14, top: 16, bottom: 40 };
  const plotWidth = width - margin.left - margin.right;
  const plotHeight = height - margin.top - margin.bottom;
  const x = (difficulty) => margin.left + plotWidth * Math.min(Math.max(difficulty, 0), 1);
  const y = (discrimination) => margin.top + plotHeight * (1 - (Math.min(Math.max(discrimination, -1), 1) + 1) / 2);

  const root = svg("svg", { viewBox: `0 0 ${width} ${height}`, role: "img", "aria-labelledby": labelledBy, class: "chart" });
  // Flag zones: too hard, too easy (whole height), low or negative discrimination (whole width).
  root.append(
    svg("rect", { class: "zone", x: x(0), y: y(1), width: x(THRESHOLDS.tooHard) - x(0), height: y(-1) - y(1) }),
    svg("rect", { class: "zone", x: x(THRESHOLDS.tooEasy), y: y(1), width: x(1) - x(THRESHOLDS.tooEasy), height: y(-1) - y(1) }),
    svg("rect", { class: "zone", x: x(0), y: y(THRESHOLDS.low), width: x(1) - x(0), height: y(-1) - y(THRESHOLDS.low) }),
  );
  for (const tick of [0, 0.2, 0.4, 0.6, 0.8, 1])
    root.append(svg("text", { class: "tick", x: x(tick), y: y(-1) + 13, "text-anchor": "middle" }, String(tick)));
  for (const tick of [-1, -0.5, 0, 0.5, 1])
    root.append(svg("text", { class: "tick", x: margin.left - 4, y: y(tick) + 3, "text-anchor": "end" }, String(tick)));
  root.append(
    svg("rect", { class: "frame", x: x(0), y: y(1), width: x(1) - x(0), height: y(-1) - y(1) }),
    svg("line", { class: "threshold", x1: x(THRESHOLDS.tooHard), x2: x(THRESHOLDS.tooHard), y1: y(1), y2: y(-1) }),
    svg("line", { class: "threshold", x1: x(THRESHOLDS.tooEasy), x2: x(THRESHOLDS.tooEasy), y1: y(1), y2: y(-1) }),
    svg("line", { class: "threshold", x1: x(0), x2: x(1), y1: y(THRESHOLDS.negative), y2: y(THRESHOLDS.negative) }),
    svg("line", { class: "threshold", x1: x(0), x2: x(1), y1: y(THRESHOLDS.low), y2: y(THRESHOLDS.low) }),
    svg("text", { class: "threshold-label", x: x(THRESHOLDS.tooHard) + 3, y: y(1) + 10 }, "0.2"),
    svg("text", { class: "threshold-label", x: x(THRESHOLDS.tooEasy) - 3, y: y(1) + 10, "text-anchor": "end" }, "0.95"),
    svg("text", { class: "threshold-label", x: x(1) - 3, y: y(THRESHOLDS.low) - 3, "text-anchor": "end" }, "0.2"),
    svg("text", { class: "axis-title", x: margin.left + plotWidth / 2, y: height - 6, "text-anchor": "middle" }, "Difficulty"),
    svg(
      "text",
      {
        class: "axis-title",
        x: 0,
        y: 0,
        "text-anchor": "middle",
        transform: `translate(11 ${margin.top + plotHeight / 2}) rotate(-90)`,
      },
      "Discrimination",
    ),
  );
  for (const point of points) {
    const cx = x(point.difficulty);
    const cy = y(point.discrimination);
    root.append(
      svg(
        "g",
        { class: point.flagged ? "point flagged" : "point" },
        svg(
          "title",
          {},
          `${point.label}: difficulty ${format.ratio(point.difficulty)}, discrimination ${format.ratio(point.discrimination)}`,
        ),
        svg("circle", { cx, cy, r: 4.5 }),
        svg(
          "text",
          { x: cx + (cx > width - 40 ? -7 : 7), y: cy - 5, "text-anchor": cx > width - 40 ? "end" : "start" },
          point.label,
        ),
      ),
    );
  }
  return root;
}

/** Longest option label drawn (the table beside the chart has the whole text). */
const LABEL_CHARS = 44;

/**
 * A horizontal bar per option, its share of the item's submissions: each labelled above by the
 * option's text (its id when the credential may not read the texts), its share at the right, the
 * key marked ✓.
 */
export function optionBars(options, labelledBy) {
  const width = 320;
  const row = 34;
  const height = options.length * row + 2;
  const root = svg("svg", { viewBox: `0 0 ${width} ${height}`, role: "img", "aria-labelledby": labelledBy, class: "chart bars" });
  options.forEach((option, i) => {
    const top = 2 + i * row;
    const text = (option.text ?? "").replace(/\s+/g, " ").trim() || option.id;
    const name = text.length > LABEL_CHARS ? `${text.slice(0, LABEL_CHARS - 1)}…` : text;
    const share = option.share ?? 0;
    root.append(
      svg("text", { class: "option-label", x: 0, y: top + 11 }, option.isKey ? `✓ ${name}` : name),
      svg("text", { class: "value", x: width, y: top + 11, "text-anchor": "end" }, format.share(option.share)),
      svg("rect", { class: "track", x: 0, y: top + 16, width, height: 12 }),
      svg("rect", { class: option.isKey ? "bar key" : "bar", x: 0, y: top + 16, width: width * share, height: 12 }),
    );
  });
  return root;
}
