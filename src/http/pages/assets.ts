// The dashboard's only assets, bundled into the binary as strings: no request ever leaves the host.

/** GET /assets/dashboard.css: system fonts, one column under 700 px, tables that scroll sideways. */
export const stylesheet = `
*{box-sizing:border-box}
body{margin:0;font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1c2430;background:#f6f7f9}
a{color:#1a56db}
header.top{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:center;justify-content:space-between;padding:.6rem 1rem;background:#1c2430;color:#fff}
header.top a{color:#fff;text-decoration:none;font-weight:600}
header.top form{margin:0}
header.top button{background:transparent;color:#fff;border:1px solid #fff6}
main{max-width:72rem;margin:0 auto;padding:1rem}
h1{font-size:1.4rem;margin:.5rem 0 1rem}
h2{font-size:1.1rem;margin:1.5rem 0 .6rem}
nav.tabs{display:flex;flex-wrap:wrap;gap:.25rem;margin:0 0 1rem;border-bottom:1px solid #d5dae1}
nav.tabs a{padding:.4rem .7rem;text-decoration:none;color:#3b4756;border-radius:6px 6px 0 0}
nav.tabs a[aria-current]{background:#fff;border:1px solid #d5dae1;border-bottom-color:#fff;margin-bottom:-1px;color:#1c2430;font-weight:600}
.cards{display:grid;grid-template-columns:repeat(auto-fit,minmax(9rem,1fr));gap:.6rem}
.card{background:#fff;border:1px solid #d5dae1;border-radius:8px;padding:.6rem .8rem}
.card b{display:block;font-size:1.4rem}
.card span{color:#5b6777;font-size:.85rem}
.panel{background:#fff;border:1px solid #d5dae1;border-radius:8px;padding:.8rem;margin:0 0 1rem;overflow-x:auto}
.panel>h2:first-child{margin-top:0}
.cards{margin:0 0 1rem}
table{border-collapse:collapse;width:100%;font-size:.9rem}
th,td{text-align:left;padding:.35rem .5rem;border-bottom:1px solid #e6e9ee;vertical-align:top}
th{color:#5b6777;font-weight:600;white-space:nowrap}
td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}
.ok{color:#0b7a3e}.bad{color:#b42318}.muted{color:#5b6777}
ul.checks{list-style:none;padding:0;margin:0}
ul.checks li{padding:.35rem 0;border-bottom:1px solid #e6e9ee}
form.inline{display:inline}
form.stack{display:grid;gap:.5rem;max-width:32rem}
label{display:grid;gap:.15rem;font-size:.9rem;color:#3b4756;min-width:0}
form.stack>*{min-width:0}form.stack label>select,form.stack label>input,form.stack label>textarea{width:100%;min-width:0}
input,select,textarea,button{font:inherit;padding:.35rem .5rem;border:1px solid #b8c0cc;border-radius:6px;max-width:100%}
textarea{min-height:4rem}
button{background:#1a56db;color:#fff;border-color:#1a56db;cursor:pointer}
button.quiet{background:#fff;color:#1c2430;border-color:#b8c0cc}
input.url{width:100%;font-family:ui-monospace,monospace;font-size:.85rem}
pre{background:#f0f2f5;padding:.6rem;border-radius:6px;overflow-x:auto;font-size:.8rem}
code{font-family:ui-monospace,monospace;font-size:.85em}
.snippet{width:100%;font:.8rem/1.4 ui-monospace,SFMono-Regular,Menlo,monospace;white-space:pre;overflow:auto;resize:vertical}
.banner{margin:0;padding:.6rem 1rem;background:#fff4e5;border-bottom:1px solid #f0c36d;color:#5c3b00}
.note{background:#eef4ff;border:1px solid #c3d5fb;border-radius:8px;padding:.6rem .8rem;margin:0 0 1rem}
.error{background:#fdecea;border:1px solid #f5c2bd;border-radius:8px;padding:.6rem .8rem;margin:0 0 1rem}
.chart{margin:0}
.chart svg{width:100%;height:auto;display:block}
.chart h3{font-size:.9rem;margin:0 0 .2rem;color:#3b4756}
.bar{fill:#1a56db}.bar.inner{fill:#0b2e7a}.key-inner{color:#0b2e7a;font-weight:600}.card small{display:block;margin-top:.1rem}.axis{stroke:#b8c0cc;stroke-width:1}.grid{stroke:#e3e7ee;stroke-width:1}.label{font-size:11px;fill:#3b4756}
.chart.empty p{margin:1.2rem 0}
.row{display:flex;flex-wrap:wrap;gap:.4rem;align-items:center}
.row.spread{justify-content:space-between}
article.partner{border-top:1px solid #e6e9ee;padding:.7rem 0}
article.partner:first-of-type{border-top:0}
dl.stats{display:grid;grid-template-columns:repeat(auto-fit,minmax(6rem,1fr));gap:.4rem;margin:.5rem 0}
dl.stats dt{color:#5b6777;font-size:.8rem}dl.stats dd{margin:0;font-weight:600}
.amount{display:block;white-space:nowrap}.status-line{display:block}
.link{margin:.4rem 0}
p.commission{margin:.3rem 0}
details summary{cursor:pointer;color:#1a56db}
.badge{white-space:nowrap;display:inline-block;font-size:.75rem;font-weight:600;padding:.05rem .45rem;border-radius:999px;border:1px solid #d5dae1;background:#f0f2f5;color:#3b4756;vertical-align:middle}
.status-active{background:#e7f6ec;border-color:#b5e0c3;color:#0b7a3e}.status-pending{background:#fff6e0;border-color:#f2d48a;color:#8a5a00}
.status-suspended,.status-rejected{background:#fdecea;border-color:#f5c2bd;color:#b42318}
a.button{display:inline-block;padding:.35rem .6rem;border:1px solid #1a56db;border-radius:6px;background:#1a56db;color:#fff;text-decoration:none}
a.button.quiet{background:#fff;color:#1c2430;border-color:#b8c0cc}
button.danger{background:#b42318;border-color:#b42318}
.columns{display:grid;grid-template-columns:repeat(auto-fit,minmax(18rem,1fr));gap:0 1rem}
form.filters{margin:.2rem 0 .6rem}
th a{color:inherit;text-decoration:none}th a[aria-sort]{color:#1c2430;text-decoration:underline}
ul.terms{margin:.3rem 0;padding-left:1.1rem}
.count{display:inline-block;min-width:1.3em;padding:0 .35em;border-radius:999px;background:#b42318;color:#fff;font-size:.75rem;text-align:center;font-weight:600}
.qr svg{display:block;width:11rem;height:11rem;margin:.4rem 0}
fieldset.events{border:1px solid #d5dae1;border-radius:6px;display:grid;grid-template-columns:repeat(auto-fit,minmax(12rem,1fr));gap:.2rem .6rem}
label.check{display:flex;gap:.4rem;align-items:center}form.stack label.check>input{width:auto}
article.panel h3{margin-top:0}.actions input{min-width:16rem}ul.flags{margin:.4rem 0;padding-left:1.1rem}.wrap{overflow-wrap:anywhere}ul.flags li{margin:.2rem 0}
.actions{display:flex;flex-wrap:wrap;gap:.6rem;align-items:flex-end}.actions form{display:flex;flex-wrap:wrap;gap:.4rem;align-items:flex-end}
.trap{position:absolute;left:-10000px;width:1px;height:1px;overflow:hidden}
.show-narrow{display:none}
table.partners td:first-child{overflow-wrap:anywhere}
.status-line>span{white-space:nowrap}.status-line+.status-line{margin-top:.2rem}
.money-list{margin:0 0 .6rem}.money-list dt{font-weight:600}.money-list div{display:flex;justify-content:space-between;border-bottom:1px solid #eef0f3}.money-list dd{margin:0;padding:.15rem 0}
.charts{display:grid;grid-template-columns:repeat(2,minmax(0,1fr));gap:.6rem}
.charts>:last-child:nth-child(odd){grid-column:1/-1}.charts>:last-child:nth-child(odd) svg{max-height:14rem}
.check-warn{color:#8a5a00}
[aria-invalid="true"]{border-color:#b42318;box-shadow:0 0 0 1px #b42318}
fieldset.readonly{border:0;padding:0;margin:0 0 .5rem;min-width:0}fieldset.readonly.stack{display:grid;gap:.5rem;max-width:32rem}fieldset.readonly.stack label>*{width:100%;min-width:0}fieldset.readonly input,fieldset.readonly select,fieldset.readonly textarea{background:#f0f2f5;color:#1c2430}
table.stacked td{overflow-wrap:anywhere}table.stacked td.nowrap{white-space:nowrap;overflow-wrap:normal}table.stacked td .row{flex-wrap:nowrap}table.stacked td.details{font-family:ui-monospace,monospace;font-size:.8rem}
@media (max-width:700px){table.stacked thead{display:none}table.stacked tr{display:block;border-bottom:1px solid #e6e9ee;padding:.35rem 0}table.stacked td{display:block;border:0;padding:.1rem 0}table.stacked td[data-label]:not([data-label=""])::before{content:attr(data-label) ": ";color:#5b6777;font-size:.8rem}}
@media (max-width:700px){table.stacked td.hide-narrow{display:none}table.stacked td.n{text-align:left}table.partners.stacked thead{display:block}table.partners.stacked thead tr{display:flex;flex-wrap:wrap;align-items:baseline;gap:0 .9rem;border-bottom:1px solid #e6e9ee}table.partners.stacked thead tr::before{content:"Sort by";color:#5b6777;font-size:.8rem}table.partners.stacked th{border:0;padding:.3rem 0}}
@media (max-width:700px){main{padding:.6rem}.hide-narrow{display:none}.show-narrow{display:block}span.show-narrow{display:inline}th,td{padding:.3rem}.charts{grid-template-columns:1fr}}
`

/** GET /assets/dashboard.js: the "Copy" buttons. Every form works without it. */
export const script = `document.addEventListener('click',function(e){var b=e.target.closest&&e.target.closest('button[data-copy]');if(!b)return;e.preventDefault();
var done=function(){b.textContent='Copied'},input=document.getElementById(b.getAttribute('data-copy'));
if(!input)return;input.select();
if(navigator.clipboard){navigator.clipboard.writeText(input.value).then(done,function(){})}});
document.addEventListener('submit',function(e){var m=e.target.getAttribute&&e.target.getAttribute('data-confirm');if(m&&!window.confirm(m))e.preventDefault()})`

/** GET /assets/favicon.svg: so that browsers do not ask for a missing /favicon.ico. */
export const favicon = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="16" rx="3" fill="#1a56db"/><path d="M4 11l3-6 2 4 1-2 2 4" stroke="#fff" fill="none" stroke-width="1.5"/></svg>`
