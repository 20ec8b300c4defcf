import { html, type Safe } from './html.ts'

/** A round step for an axis reaching `max`: 1, 2 or 5 times a power of ten, about four steps. */
function niceStep(max: number): number {
  const raw = max / 4
  const power = 10 ** Math.floor(Math.log10(raw))
  const unit = raw / power
  return (unit <= 1 ? 1 : unit <= 2 ? 2 : unit <= 5 ? 5 : 10) * power
}

/**
 * A bar chart of one value per day, drawn on the server as inline SVG (no script, no request):
 * `values` oldest first, `days` their labels. The value axis has round gridlines labelled with
 * `format`; the day axis names the first, middle and last day; a span with nothing in it says so
 * in words instead of drawing an empty frame. `inner` draws a part of each value (at most the
 * value: the unique clicks of the clicks) as a darker bar inside its bar.
 */
export function barChart(
  title: string,
  values: number[],
  days: string[],
  options: {
    format?: (n: number) => string
    axis?: (n: number) => string
    unit?: string
    inner?: { label: string; values: number[] }
  } = {},
): Safe {
  const { format = String, axis = format, unit = 'day', inner } = options
  const total = values.reduce((a, b) => a + b, 0)
  const innerTotal = inner ? html`, <span class="key-inner">${format(inner.values.reduce((a, b) => a + b, 0))} ${inner.label}</span>` : ''
  const heading = html`<h3>${title} <span class="muted">(${format(total)} in all${innerTotal})</span></h3>`
  if (total === 0) {
    return html`<figure class="chart panel empty">${heading}<p class="muted">Nothing in these ${values.length} ${unit}s yet.</p></figure>`
  }
  const width = 320
  const height = 130
  const left = 44
  const top = 8
  const bottom = 20
  const plot = height - top - bottom
  const max = Math.max(...values)
  // Whole counts get whole steps; money steps come from the values themselves.
  const step = Math.max(niceStep(max), Number.isInteger(max) && max < 4 ? 1 : 0)
  const ceiling = Math.ceil(max / step) * step
  const y = (v: number) => top + plot - (v / ceiling) * plot
  const lines = Array.from({ length: Math.round(ceiling / step) + 1 }, (_, i) => i * step)
  const slot = (width - left) / Math.max(1, values.length)
  const bars = values.map((value, i) => {
    const h = value > 0 ? Math.max(1, (value / ceiling) * plot) : 0
    const x = (left + i * slot + slot * 0.1).toFixed(1)
    const part = inner ? Math.min(inner.values[i] ?? 0, value) : 0
    const innerH = part > 0 ? Math.max(1, (part / ceiling) * plot) : 0
    const label = inner ? `${days[i]}: ${format(value)}, ${format(part)} ${inner.label}` : `${days[i]}: ${format(value)}`
    return html`<rect class="bar" x="${x}" y="${(top + plot - h).toFixed(1)}" width="${(slot * 0.8).toFixed(1)}" height="${h.toFixed(1)}"><title>${label}</title></rect>${
      innerH > 0
        ? html`<rect class="bar inner" x="${x}" y="${(top + plot - innerH).toFixed(1)}" width="${(slot * 0.8).toFixed(1)}" height="${innerH.toFixed(1)}"><title>${label}</title></rect>`
        : ''
    }`
  })
  const middle = Math.floor((values.length - 1) / 2)
  const dayAt = (i: number, anchor: string) =>
    html`<text class="label" x="${(left + i * slot + slot / 2).toFixed(1)}" y="${height - 5}" text-anchor="${anchor}">${days[i]}</text>`
  return html`<figure class="chart panel">${heading}
<svg viewBox="0 0 ${width} ${height}" role="img" aria-label="${title} per ${unit}, ${days[0]} to ${days[days.length - 1]}">
${lines.map(
  (v) =>
    html`<line class="grid" x1="${left}" y1="${y(v).toFixed(1)}" x2="${width}" y2="${y(v).toFixed(1)}"/><text class="label" x="${left - 4}" y="${(y(v) + 3).toFixed(1)}" text-anchor="end">${axis(v)}</text>`,
)}
${bars}
${dayAt(0, 'start')}${values.length > 2 ? dayAt(middle, 'middle') : ''}${dayAt(values.length - 1, 'end')}
</svg></figure>`
}
