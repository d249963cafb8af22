// Renders a skillgrade report (the JSON returned by `skillgrade.report` / `skillgrade.score`) as
// Markdown for the read-only report document. Defensive: only fields that are present are shown,
// and the full JSON always follows, so nothing the server said is lost or invented.

type Json = Record<string, unknown>;

function isObj(v: unknown): v is Json {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function fmt(v: unknown): string {
  if (typeof v === "number") return Number.isInteger(v) ? String(v) : v.toFixed(1);
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
      rows.push(`| ${fmt(name)} | ${fmt(d.score ?? d.value)} | ${fmt(d.grade ?? d.badge ?? "")} | ${fmt(d.confidence ?? d.source ?? "")} |`);
    } else {
      rows.push(`| ${fmt(name)} | ${fmt(d)} | | |`);
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
    if (composite.badge !== undefined) parts.push(`**Badge:** ${fmt(composite.badge)}`);
    if (composite.confidence !== undefined) parts.push(`**Confidence:** ${fmt(composite.confidence)}`);
    lines.push(parts.join(" · "), "");
  }
  const rows = dimensionRows(r.dimensions ?? composite?.dimensions);
  if (rows.length) {
    lines.push("## Dimensions", "", "| dimension | score | grade | confidence |", "|---|---|---|---|", ...rows, "");
  }
  const findings = Array.isArray(r.findings) ? r.findings : [];
  if (findings.length) {
    lines.push("## Findings", "");
    for (const f of findings) {
      if (!isObj(f)) continue;
      const where = isObj(f.span) && isObj(f.span.start) ? ` (line ${Number(f.span.start.line ?? 0) + 1})` : f.line !== undefined ? ` (line ${fmt(f.line)})` : "";
      lines.push(`- **${fmt(f.code)}** ${fmt(f.severity ?? "")}${where}: ${fmt(f.message)}`);
    }
    lines.push("");
  }
  lines.push("## Raw report", "", "```json", JSON.stringify(report, null, 2), "```", "");
  return lines.join("\n");
}
