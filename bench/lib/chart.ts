/**
 * A small hand-written SVG line chart: rate (0-100%) against categories, one panel per condition.
 * No dependencies; the output is plain SVG 1.1 that GitHub renders in a README.
 */

export interface Series {
  name: string;
  color: string;
  /** stroke-dasharray, e.g. '6 4'; solid when absent */
  dash?: string;
  /** one value per category, 0..1; null = not measured */
  values: (number | null)[];
  /** horizontal offset in pixels, so that lines on top of each other stay visible */
  nudge?: number;
}

export interface LegendEntry {
  label: string;
  color: string;
  dash?: string;
}

export interface Panel {
  title: string;
  series: Series[];
}

export interface ChartSpec {
  title: string;
  subtitle?: string;
  categories: string[];
  xLabel: string;
  yLabel: string;
  panels: Panel[];
  /** a dotted horizontal reference line (e.g. alpha), 0..1 */
  reference?: { value: number; label: string };
  /** legend entries, one per row; and a note under them */
  legend: LegendEntry[];
  note?: string;
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const f = (x: number) => (Math.round(x * 10) / 10).toString();

export function lineChartSvg(spec: ChartSpec): string {
  const panelW = 360;
  const panelH = 260;
  const margin = { left: 56, right: 16, top: 78, bottom: 52 };
  const gap = 36;
  const legendH = 20 * spec.legend.length + (spec.note ? 22 : 0) + 10;
  const width = margin.left + spec.panels.length * panelW + (spec.panels.length - 1) * gap + margin.right;
  const height = margin.top + panelH + margin.bottom + legendH;
  const out: string[] = [];
  out.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="-apple-system, 'Segoe UI', Helvetica, Arial, sans-serif" font-size="12">`);
  out.push(`<rect x="0" y="0" width="${width}" height="${height}" fill="#ffffff"/>`);
  out.push(`<text x="${width / 2}" y="22" text-anchor="middle" font-size="15" font-weight="bold" fill="#111">${esc(spec.title)}</text>`);
  if (spec.subtitle) out.push(`<text x="${width / 2}" y="40" text-anchor="middle" fill="#555">${esc(spec.subtitle)}</text>`);
  const n = spec.categories.length;
  spec.panels.forEach((panel, pi) => {
    const x0 = margin.left + pi * (panelW + gap);
    const y0 = margin.top;
    const px = (i: number) => x0 + (n === 1 ? panelW / 2 : 20 + (i * (panelW - 40)) / (n - 1));
    const py = (v: number) => y0 + panelH - v * panelH;
    out.push(`<g>`);
    out.push(`<text x="${x0 + panelW / 2}" y="${y0 - 10}" text-anchor="middle" font-size="13" font-weight="bold" fill="#222">${esc(panel.title)}</text>`);
    for (let t = 0; t <= 100; t += 25) {
      const y = py(t / 100);
      out.push(`<line x1="${x0}" y1="${f(y)}" x2="${x0 + panelW}" y2="${f(y)}" stroke="#e5e5e5"/>`);
      out.push(`<text x="${x0 - 6}" y="${f(y + 4)}" text-anchor="end" fill="#555">${t}%</text>`);
    }
    out.push(`<rect x="${x0}" y="${y0}" width="${panelW}" height="${panelH}" fill="none" stroke="#999"/>`);
    spec.categories.forEach((c, i) => {
      out.push(`<line x1="${f(px(i))}" y1="${y0 + panelH}" x2="${f(px(i))}" y2="${y0 + panelH + 5}" stroke="#999"/>`);
      out.push(`<text x="${f(px(i))}" y="${y0 + panelH + 18}" text-anchor="middle" fill="#333">${esc(c)}</text>`);
    });
    out.push(`<text x="${x0 + panelW / 2}" y="${y0 + panelH + 38}" text-anchor="middle" fill="#333">${esc(spec.xLabel)}</text>`);
    if (pi === 0) {
      out.push(`<text transform="translate(${x0 - 40} ${y0 + panelH / 2}) rotate(-90)" text-anchor="middle" fill="#333">${esc(spec.yLabel)}</text>`);
    }
    if (spec.reference) {
      const y = py(spec.reference.value);
      out.push(`<line x1="${x0}" y1="${f(y)}" x2="${x0 + panelW}" y2="${f(y)}" stroke="#c00" stroke-dasharray="2 3"/>`);
      out.push(`<text x="${x0 + panelW - 4}" y="${f(y - 4)}" text-anchor="end" fill="#c00" font-size="10">${esc(spec.reference.label)}</text>`);
    }
    for (const s of panel.series) {
      const pts = s.values.map((v, i) => (v === null ? null : ([px(i) + (s.nudge ?? 0), py(v)] as const)));
      let d = '';
      let pen = false;
      for (const p of pts) {
        if (!p) {
          pen = false;
          continue;
        }
        d += `${pen ? 'L' : 'M'}${f(p[0])} ${f(p[1])} `;
        pen = true;
      }
      if (d) out.push(`<path d="${d.trim()}" fill="none" stroke="${s.color}" stroke-width="2"${s.dash ? ` stroke-dasharray="${s.dash}"` : ''}/>`);
      for (const p of pts) if (p) out.push(`<circle cx="${f(p[0])}" cy="${f(p[1])}" r="3" fill="${s.color}"/>`);
    }
    out.push(`</g>`);
  });
  // legend: one entry per row under the panels, then the note
  const ly = margin.top + panelH + margin.bottom;
  spec.legend.forEach((s, i) => {
    const x = margin.left;
    const y = ly + i * 20 + 8;
    out.push(`<line x1="${x}" y1="${y}" x2="${x + 28}" y2="${y}" stroke="${s.color}" stroke-width="2"${s.dash ? ` stroke-dasharray="${s.dash}"` : ''}/>`);
    out.push(`<text x="${x + 36}" y="${y + 4}" fill="#222">${esc(s.label)}</text>`);
  });
  if (spec.note) out.push(`<text x="${margin.left}" y="${ly + spec.legend.length * 20 + 14}" fill="#555" font-size="11">${esc(spec.note)}</text>`);
  out.push(`</svg>`);
  return `${out.join('\n')}\n`;
}
