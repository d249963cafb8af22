// Renders a skillgrade report (the JSON returned by `skillgrade.report` / `skillgrade.score`) as
// Markdown for the read-only report document. Defensive: only fields that are present are shown,
// and the full JSON always follows, so nothing the server said is lost or invented.

type Json = Record<string, unknown>;

function isObj(v: unknown): v is Json {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function fmt(v: unknown): string {
  if (typeof v === "number") return String(Math.round(v * 100) / 100);
  if (v === null || v === undefined) return "–";
  if (typeof v === "string") return v.replace(/\|/g, "\\|").replace(/\n/g, " ");
  return JSON.stringify(v).replace(/\|/g, "\\|");
}

function dimensionRows(dims: unknown): string[] {
  const rows: string[] = [];
  const entries: [string, unknown][] = Array.isArray(dims)
    ? dims.map((d, i) => [String((isObj(d) && (d.name ?? d.id ?? d.dimension)) ?? i), d])
    : isObj(dims)
      ? Object.entries(dims)
      : [];
  for (const [name, d] of entries) {
    if (isObj(d)) {
      const by = Array.isArray(d.measured_by) ? d.measured_by.join(", ") : d.confidence ?? "";
      rows.push(`| ${fmt(name)} | ${fmt(d.score ?? d.value)} | ${fmt(d.grade ?? "")} | ${fmt(d.weight ?? "")} | ${fmt(by) || "not measured"} |`);
    } else {
      rows.push(`| ${fmt(name)} | ${fmt(d)} | | | |`);
    }
  }
  return rows;
}

export function renderReport(report: unknown, sourceLabel: string): string {
  const lines: string[] = [`# skillgrade report: ${sourceLabel}`, ""];
  const r = isObj(report) ? report : {};
  const composite = isObj(r.composite) ? r.composite : undefined;
  if (composite) {
    const parts = [`**Score:** ${fmt(composite.score)}`];
    if (composite.badge !== undefined) parts.push(`**Badge:** ${composite.badge ? fmt(composite.badge) : "none"}`);
    if (composite.confidence !== undefined) parts.push(`**Confidence:** ${fmt(composite.confidence)}`);
    if (Array.isArray(composite.layers_run)) parts.push(`**Layers:** ${composite.layers_run.join(", ")}`);
    lines.push(parts.join(" · "), "");
  }
  const rows = dimensionRows(r.dimensions ?? composite?.dimensions);
  if (composite && Array.isArray(composite.unmeasured) && composite.unmeasured.length) {
    lines.push(`Not measured yet: ${composite.unmeasured.join(", ")}.`, "");
  }
  if (rows.length) {
    lines.push("## Dimensions", "", "| dimension | score | grade | weight | measured by |", "|---|---|---|---|---|", ...rows, "");
  }
  const findings = Array.isArray(r.findings) ? r.findings : [];
  if (findings.length) {
    lines.push("## Findings", "");
    for (const f of findings) {
      if (!isObj(f)) continue;
      const r = isObj(f.range) ? f.range : isObj(f.span) ? f.span : undefined;
      const where = r && isObj(r.start) ? ` (line ${Number(r.start.line ?? 0) + 1})` : "";
      lines.push(`- **${fmt(f.code)}** ${fmt(f.severity ?? "")}${where}: ${fmt(f.message)}`);
    }
    lines.push("");
  }
  lines.push("## Raw report", "", "```json", JSON.stringify(report, null, 2), "```", "");
  return lines.join("\n");
}
