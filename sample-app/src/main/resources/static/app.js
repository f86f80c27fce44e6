// The live page: draws, per template, throughput and p50/p99 latency window by window, the N of
// the strategy that served each window as a band coloured by its type, and a marker with the
// reason at each switch. When a template first appears it draws the windows the server kept
// (/actuator/adaptivecache/{name}/history, five minutes by default), so a page opened after an
// incident shows it; then it polls /actuator/adaptivecache every second and appends each new
// window (the template's lastWindow), keyed by the time the window closed on the server.
const WINDOW_SECONDS = 300;
const STRATEGY_COLORS = { SINGLE: '#9aa5b8', MULTI: '#3c8d5a', POOLED: '#c46b2c' };
// What each strategy does, for the band's tooltip and legend: a new user reads a colour, not a name.
const STRATEGY_WORDS = {
  SINGLE: 'one shared connection carries every call',
  MULTI: 'N shared connections, calls spread over them; no caller waits for a connection',
  POOLED: 'N pooled connections, one per call at a time; when all are busy callers queue for one, and give up after the pool\'s max-wait'
};
// The policy's reasons in plain words, after the reason and its evidence.
const DECISION_WORDS = {
  INSUFFICIENT_DATA: 'too few calls in the last window to judge: waiting for traffic (start a load)',
  STEADY: 'nothing calls for a change',
  DWELL: 'too soon after the last change to change again',
  CONFIRMING: 'a condition for a change holds; waiting for it to hold a few windows in a row',
  DISTURBED: 'this window overlapped a switch or a failure, so it counts neither way',
  TRIAL: 'a new strategy is on trial against the one it replaced',
  POOL_CONTENTION: 'callers wait for a pooled connection about as long as they use it: the pool is the bottleneck'
};
const cards = {};
// Each template's history request, made once; every poll waits for it before appending a window.
const histories = {};
// The charts by template name, for a reader of the page (the browser test reads their data).
window.liveCharts = {};

function strategyType(spec) {
  return (spec || '').split('(')[0];
}

function card(name) {
  if (cards[name]) {
    return cards[name];
  }
  const element = document.createElement('section');
  element.className = 'card';
  element.id = 'template-' + name;
  element.innerHTML = `<h2>${name}</h2><div class="badges"></div><div class="decision"></div>
    <canvas></canvas><div class="legend">band = strategy serving each window, its height N:${Object.entries(STRATEGY_COLORS)
      .map(([type, colour]) => `<span class="swatch" style="background:${colour}66" title="${STRATEGY_WORDS[type]}"></span>${type}`).join('')}</div>
    <ol class="switches" reversed></ol>`;
  document.getElementById('templates').appendChild(element);
  const chart = new Chart(element.querySelector('canvas'), {
    type: 'line',
    data: { datasets: [
      { label: 'calls/s', data: [], yAxisID: 'rate', borderColor: '#2b6cb0', pointRadius: 0, borderWidth: 2 },
      { label: 'p50 ms', data: [], yAxisID: 'latency', borderColor: '#38a169', pointRadius: 0, borderWidth: 1 },
      { label: 'p99 ms', data: [], yAxisID: 'latency', borderColor: '#d53f8c', pointRadius: 0, borderWidth: 1 },
      // Each point closes its window: 'after' draws its N (and colour) back to the previous point, over the window it served.
      { label: 'N (band = strategy)', data: [], yAxisID: 'connections', stepped: 'after', fill: 'origin', pointRadius: 0,
        borderWidth: 0, segment: { backgroundColor: ctx => (STRATEGY_COLORS[ctx.p1.raw.strategy] || '#999') + '33' } },
      { label: 'switch', type: 'scatter', data: [], yAxisID: 'rate', pointRadius: 7, pointStyle: 'triangle',
        backgroundColor: '#1d2330' }
    ] },
    options: {
      animation: false, parsing: false, responsive: true,
      scales: {
        // No labels on an axis with no window yet (Chart.js would count from 1970).
        x: { type: 'linear', ticks: { callback: v => v > 1e12 ? new Date(v).toLocaleTimeString() : '' } },
        rate: { position: 'left', beginAtZero: true, title: { display: true, text: 'calls/s' } },
        latency: { position: 'right', beginAtZero: true, grid: { drawOnChartArea: false }, title: { display: true, text: 'ms' } },
        connections: { display: false, beginAtZero: true, suggestedMax: 16 }
      },
      plugins: { tooltip: { callbacks: { label: ctx => ctx.raw.label || `${ctx.dataset.label}: ${ctx.parsed.y}` } } }
    }
  });
  cards[name] = { element, chart, switches: new Set(), lastAt: -Infinity, spanMillis: WINDOW_SECONDS * 1000 };
  window.liveCharts[name] = chart;
  return cards[name];
}

// One window: a point on each line at the time it closed, and the band at the N of the strategy
// that served it. A window already drawn (the history and the polls overlap) is skipped.
function addWindow(entry, sample) {
  const at = Date.parse(sample.at);
  if (at <= entry.lastAt) {
    return;
  }
  entry.lastAt = at;
  const [rate, p50, p99, band] = entry.chart.data.datasets;
  rate.data.push({ x: at, y: sample.throughput });
  p50.data.push({ x: at, y: sample.p50Millis });
  p99.data.push({ x: at, y: sample.p99Millis });
  band.data.push({ x: at, y: sample.connections, strategy: sample.strategyType,
    label: `${sample.strategy}: ${STRATEGY_WORDS[sample.strategyType] || ''}` });
}

// What the server kept of a template's last windows, drawn before any live point.
async function loadHistory(name) {
  const entry = card(name);
  let windows;
  try {
    const response = await fetch(`/actuator/adaptivecache/${encodeURIComponent(name)}/history`);
    windows = response.ok ? (await response.json()).windows : [];
  }
  catch (error) {
    windows = []; // the live windows are still drawn
  }
  if (windows.length > 1) {
    // Keep as much as the server keeps, if that is more than the page's five minutes.
    entry.spanMillis = Math.max(entry.spanMillis, Date.parse(windows[windows.length - 1].at) - Date.parse(windows[0].at));
  }
  windows.forEach(sample => addWindow(entry, sample));
  entry.element.dataset.history = String(windows.length);
}

function trim(data, newest, spanMillis) {
  while (data.length && data[0].x < newest - spanMillis) {
    data.shift();
  }
}

function render(name, template, now) {
  const entry = card(name);
  const { element, chart, switches } = entry;
  const [rate, , , , markers] = chart.data.datasets;
  const figures = template.figures;
  if (template.lastWindow) {
    addWindow(entry, template.lastWindow);
  }
  for (const event of template.recentSwitches) {
    const key = event.at + event.to;
    if (switches.has(key)) {
      continue;
    }
    switches.add(key);
    const at = Date.parse(event.at);
    markers.data.push({ x: at, y: Math.max(...rate.data.map(p => p.y), 1) * 0.95,
      label: `${event.reason}: ${event.from} -> ${event.to} (${event.evidence})` });
    const item = document.createElement('li');
    item.className = 'switch';
    item.innerHTML = `<span class="reason">${event.reason}</span> ${new Date(at).toLocaleTimeString()}
      ${event.from} &rarr; ${event.to} <span class="evidence">${event.evidence}</span>
      (warm-up ${event.warmUpMillis} ms, drain ${event.drainMillis} ms, ${event.outcome.toLowerCase()})`;
    element.querySelector('.switches').prepend(item);
  }
  // Trimmed by the server's time of the newest window, the clock the points are drawn on.
  chart.data.datasets.forEach(dataset => trim(dataset.data, entry.lastAt, entry.spanMillis));
  chart.update('none');

  const badges = [`<span class="strategy">${template.strategy}</span>`, `<span>${template.pinned ? 'pinned' : template.mode}</span>`,
    `<span>${template.backend}</span>`];
  if (figures) {
    badges.push(`<span>${figures.throughput} calls/s</span>`, `<span>p99 ${figures.p99Millis.toFixed(2)} ms</span>`,
      `<span>in flight ${figures.inFlight}</span>`, `<span>pool wait ${figures.poolWaitMillis.toFixed(2)} ms</span>`);
  }
  if (template.suppressed) {
    badges.push('<span class="warning">suppressed: flapping</span>');
  }
  element.querySelector('.badges').innerHTML = badges.join('');
  const decision = template.lastDecision;
  element.querySelector('.decision').textContent = decision ? `last decision: ${decision.reason} — ${decision.evidence}`
    + (DECISION_WORDS[decision.reason] ? ` (${DECISION_WORDS[decision.reason]})` : '') : '';
  element.dataset.points = String(rate.data.length);
}

async function poll() {
  try {
    const now = Date.now();
    document.getElementById('clock').textContent = new Date(now).toLocaleTimeString();
    // The load's status first: on a busy machine the first poll's histories take a while, and a
    // running demo must not read as idle meanwhile.
    showLoad(await (await fetch('/load')).json());
    const response = await fetch('/actuator/adaptivecache');
    const body = await response.json();
    const templates = Object.entries(body.templates);
    // Every template's history requested at once, not one after another.
    templates.forEach(([name]) => { histories[name] = histories[name] || loadHistory(name); });
    for (const [name, template] of templates) {
      await histories[name];
      render(name, template, now);
    }
  }
  catch (error) {
    document.getElementById('clock').textContent = 'offline: ' + error;
  }
}

// The load's status beside its controls, and below them what the last run's errors mean: a bare
// "5975 errors" reads as an outage, where a pool that ran out of connections is the pool's collapse.
function showLoad(load) {
  const report = load.lastReport;
  const demo = load.current && load.current.startsWith('demo:');
  document.getElementById('load-status').textContent = load.running
    ? `running ${load.current}` + (demo ? ' (started by the sample so the charts have data; sample.demo-load.enabled=false turns it off)' : '')
    : report ? `last run${report.label ? ' (' + report.label + ')' : ''}: ${report.operationsPerSecond} calls/s, `
      + `p99 ${(report.p99Micros / 1000).toFixed(2)} ms, ${report.errors} errors` + (report.errors ? ' (why: below)' : '')
    : 'idle';
  const box = document.getElementById('load-report');
  const causes = (!load.running && report && report.errorCauses) || [];
  box.hidden = causes.length === 0;
  box.innerHTML = causes.length === 0 ? '' : `Why the last run had ${report.errors} errors:<ul>`
    + causes.map(cause => `<li title="${escapeHtml(cause.example)}"><span class="type">${cause.count} × ${cause.type} on ${cause.backend}</span>: `
      + `${escapeHtml(cause.explanation)}.</li>`).join('') + '</ul>'
    // The promise of "an outage costs a miss" is the Spring cache's (cache.on-error: degrade); the load calls the templates.
    + '<div class="note">The load calls the templates directly, where a failed call throws; through the Spring cache'
    + ' (<code>adaptive-cache.cache.on-error: degrade</code>) the same failure is a cache miss.</div>';
}

function escapeHtml(text) {
  return String(text).replace(/[&<>"]/g, c => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);
}

async function post(url, body, statusId) {
  const response = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' },
    body: body ? JSON.stringify(body) : undefined });
  const text = await response.text();
  if (statusId) {
    document.getElementById(statusId).textContent = response.ok ? 'ok' : text;
  }
  return response;
}

const value = id => document.getElementById(id).value;
document.getElementById('load-start').onclick = () => post(`/load/start?backend=${value('load-backend')}&threads=${value('load-threads')}`
  + `&valueSize=${value('load-size')}&duration=PT${value('load-seconds')}S`, null, 'load-status');
document.getElementById('load-stop').onclick = () => post('/load/stop', null, 'load-status');
document.getElementById('delay-apply').onclick = () => post(`/delay?millis=${value('delay-millis')}`, null, 'delay-status');
document.getElementById('delay-remove').onclick = () => post('/delay?millis=0', null, 'delay-status');
const control = action => post(`/actuator/adaptivecache/${value('pin-backend')}`,
  { action, strategy: value('pin-strategy'), connections: Number(value('pin-connections')) }, 'pin-status');
document.getElementById('pin').onclick = () => control('pin');
document.getElementById('trial').onclick = () => control('trial');
document.getElementById('unpin').onclick = () => post(`/actuator/adaptivecache/${value('pin-backend')}`, { action: 'unpin' }, 'pin-status');

poll();
setInterval(poll, 1000);
