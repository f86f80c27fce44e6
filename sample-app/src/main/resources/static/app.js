// The live page: draws, per template, throughput and p50/p99 latency window by window, the N of
// the strategy that served each window as a band coloured by its type, and a marker with the
// reason at each switch. When a template first appears it draws the windows the server kept
// (/actuator/adaptivecache/{name}/history, five minutes by default), so a page opened after an
// incident shows it; then it polls /actuator/adaptivecache every second and appends each new
// window (the template's lastWindow), keyed by the time the window closed on the server.
const WINDOW_SECONDS = 300;
const STRATEGY_COLORS = { SINGLE: '#9aa5b8', MULTI: '#3c8d5a', POOLED: '#c46b2c' };
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
    <canvas></canvas><ol class="switches" reversed></ol>`;
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
        x: { type: 'linear', ticks: { callback: v => new Date(v).toLocaleTimeString() } },
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
  band.data.push({ x: at, y: sample.connections, strategy: sample.strategyType });
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
  element.querySelector('.decision').textContent = decision ? `last decision: ${decision.reason} — ${decision.evidence}` : '';
  element.dataset.points = String(rate.data.length);
}

async function poll() {
  try {
    const now = Date.now();
    document.getElementById('clock').textContent = new Date(now).toLocaleTimeString();
    const response = await fetch('/actuator/adaptivecache');
    const body = await response.json();
    for (const [name, template] of Object.entries(body.templates)) {
      histories[name] = histories[name] || loadHistory(name);
      await histories[name];
      render(name, template, now);
    }
    const load = await (await fetch('/load')).json();
    document.getElementById('load-status').textContent = load.running ? 'running'
      : load.lastReport ? `last run: ${load.lastReport.operationsPerSecond} calls/s, p99 ${(load.lastReport.p99Micros / 1000).toFixed(2)} ms, ${load.lastReport.errors} errors`
      : 'idle';
  }
  catch (error) {
    document.getElementById('clock').textContent = 'offline: ' + error;
  }
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
