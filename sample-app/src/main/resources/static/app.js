// The live page: polls /actuator/adaptivecache every second and draws, per template,
// throughput and p50/p99 latency over the last five minutes, the live strategy's N as a band,
// and a marker with the reason at each switch.
const WINDOW_SECONDS = 300;
const STRATEGY_COLORS = { SINGLE: '#9aa5b8', MULTI: '#3c8d5a', POOLED: '#c46b2c' };
const cards = {};

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
      { label: 'N (band = strategy)', data: [], yAxisID: 'connections', stepped: true, fill: 'origin', pointRadius: 0,
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
  cards[name] = { element, chart, switches: new Set() };
  return cards[name];
}

function trim(data, now) {
  while (data.length && data[0].x < now - WINDOW_SECONDS * 1000) {
    data.shift();
  }
}

function render(name, template, now) {
  const { element, chart, switches } = card(name);
  const [rate, p50, p99, band, markers] = chart.data.datasets;
  const figures = template.figures;
  if (figures) {
    rate.data.push({ x: now, y: figures.throughput });
    p50.data.push({ x: now, y: figures.p50Millis });
    p99.data.push({ x: now, y: figures.p99Millis });
  }
  band.data.push({ x: now, y: template.connections, strategy: strategyType(template.strategy) });
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
  chart.data.datasets.forEach(dataset => trim(dataset.data, now));
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
