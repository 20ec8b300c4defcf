import { html, type Safe } from './html.ts'

/**
 * A bar chart of one value per day, drawn on the server as inline SVG (no script, no request):
 * `values` oldest first; `format` writes the largest value on the axis.
 */
export function barChart(
  title: string,
  values: number[],
  firstDayLabel: string,
  lastDayLabel: string,
  format: (n: number) => string = String,
): Safe {
  const width = 300
  const height = 110
  const top = 14
  const bottom = 18
  const plot = height - top - bottom
  const max = Math.max(0, ...values)
  const step = width / Math.max(1, values.length)
  const bars = values.map((value, i) => {
    const h = max > 0 ? Math.max(value > 0 ? 1 : 0, Math.round((value / max) * plot)) : 0
    const x = (i * step + step * 0.1).toFixed(1)
    return html`<rect class="bar" x="${x}" y="${top + plot - h}" width="${(step * 0.8).toFixed(1)}" height="${h}"><title>${format(value)}</title></rect>`
  })
  const total = values.reduce((a, b) => a + b, 0)
  return html`<figure class="chart panel"><h3>${title} <span class="muted">(${format(total)} in all)</span></h3>
<svg viewBox="0 0 ${width} ${height}" role="img" aria-label="${title} per day">
<text class="label" x="0" y="10">max ${format(max)}</text>
${bars}
<line class="axis" x1="0" y1="${top + plot + 0.5}" x2="${width}" y2="${top + plot + 0.5}"/>
<text class="label" x="0" y="${height - 4}">${firstDayLabel}</text>
<text class="label" x="${width}" y="${height - 4}" text-anchor="end">${lastDayLabel}</text>
</svg></figure>`
}
