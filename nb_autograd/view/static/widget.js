// nb_autograd widget front end. Python sends plain data; every string goes in with
// textContent, and the SVG (already checked in Python) is parsed as XML and filtered again.
const SVG_TAGS = new Set(['svg', 'g', 'path', 'polygon', 'polyline', 'ellipse', 'text']);
const LANGS = [['en', 'English'], ['zh', '简体中文']];

function h(tag, props = {}, ...kids) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (v == null || v === false) continue;
    if (k === 'class') el.className = v;
    else if (k === 'text') el.textContent = v;
    else if (k.startsWith('on')) el.addEventListener(k.slice(2), v);
    else el.setAttribute(k, v);
  }
  for (const kid of kids.flat()) if (kid != null && kid !== false && kid !== '') el.append(kid);
  return el;
}
const fmt = (s, facts = {}) => String(s || '').replace(/\{(\w+)\}/g, (m, k) => (k in facts ? String(facts[k]) : m));
const bytes = (n) => (n >= 1048576 ? `${(n / 1048576).toFixed(1)} MiB` : n >= 1024 ? `${(n / 1024).toFixed(1)} KiB` : `${n} B`);

// The notebook's shared model, reached through the widget manager anywidget hands us
// (JupyterLab 4, Notebook 7). Not a documented API: feature-detect, fall back to Copy.
function notebook(model) {
  try {
    const nb = model.widget_manager?.context?.model?.sharedModel;
    if (nb && typeof nb.insertCell === 'function' && typeof nb.getCell === 'function' && nb.cells) return nb;
  } catch (e) { /* another front end */ }
  return null;
}

// A fix may change other cells too (`also`: a step moved from one cell to another); those
// are always replaced, all or none, so a move is never left half made.
function applyFix(model, fix, mode) {
  const nb = notebook(model);
  const edits = [{ cell_id: fix.cell_id || (model.get('view') || {}).cell_id, source: fix.source }, ...(fix.also || [])];
  if (!nb || edits.some((e) => !e.cell_id)) return 'no_notebook';
  const cells = Array.from(nb.cells);
  const indexes = edits.map((e) => cells.findIndex((c) => c.id === e.cell_id));
  if (indexes.some((i) => i < 0)) return 'cell_gone';
  if (mode === 'insert') nb.insertCell(indexes[0] + 1, { cell_type: 'code', source: fix.source });
  else nb.getCell(indexes[0]).setSource(fix.source);
  edits.slice(1).forEach((e, k) => nb.getCell(indexes[k + 1]).setSource(e.source));
  return mode === 'insert' ? 'inserted' : 'replaced';
}

async function copyText(text) {
  try { await navigator.clipboard.writeText(text); return true; } catch (e) { /* try the old way */ }
  const area = h('textarea', { class: 'nba-offscreen' });
  area.value = text;
  document.body.append(area);
  area.select();
  let ok = false;
  try { ok = document.execCommand('copy'); } catch (e) { ok = false; }
  area.remove();
  return ok;
}

function diffView(diff, source) {
  if (!diff) return h('pre', { class: 'nba-diff', text: source });
  const pre = h('pre', { class: 'nba-diff' });
  for (const line of diff.split('\n').slice(2)) {
    const cls = line.startsWith('+') ? 'add' : line.startsWith('-') ? 'del' : line.startsWith('@') ? 'hunk' : '';
    pre.append(h('span', { class: cls, text: `${line}\n` }));
  }
  return pre;
}

function fixView(model, fix, n, w, canEdit) {
  const status = h('div', { class: 'nba-status', role: 'status' });
  const magic = fix.magic || fmt(w.magic_insert, { n });
  const target = fix.target || w.this_cell;
  const say = (key) => { status.textContent = fmt(w[key], { magic, n, target }); status.dataset.state = key; };
  const act = (mode) => () => say(applyFix(model, fix, mode));
  const also = fix.also || [];
  const editable = canEdit && !fix.file && also.every((e) => e.cell_id && !e.file);
  const buttons = editable ? [
    !also.length && h('button', { class: 'nba-btn primary', 'data-act': 'insert', onclick: act('insert') }, fmt(w.insert, { target })),
    h('button', { class: 'nba-btn', 'data-act': 'replace', onclick: act('replace') },
      fmt(w.replace, { target: [target, ...also.map((e) => e.target || w.this_cell)].join(' + ') }))].filter(Boolean) : [];
  // a fix of several cells is copied whole, each cell's code under a comment naming it
  const copied = also.length ? [{ target, source: fix.source }, ...also.map((e) => ({ target: e.target || w.this_cell, source: e.source }))]
    .map((e) => `# ${e.target}\n${e.source}`).join('\n\n') : fix.source;
  buttons.push(h('button', { class: 'nba-btn', 'data-act': 'copy',
    onclick: async () => say((await copyText(copied)) ? 'copied' : 'copy_failed') }, w.copy));
  if (!canEdit) say('no_notebook');
  return h('li', { class: 'nba-fix', 'data-kind': fix.kind },
    h('div', { class: 'nba-fix-title', text: fix.title }), fix.note && h('div', { class: 'nba-note', text: fix.note }),
    diffView(fix.diff, fix.source),
    ...also.flatMap((e) => [h('div', { class: 'nba-note', text: e.target || w.this_cell }), diffView(e.diff, e.source)]),
    h('div', { class: 'nba-actions' }, buttons), status);
}

function codeView(lines) {
  return h('pre', { class: 'nba-code' }, lines.map((l) => (l.gap ? h('span', { class: 'gap', text: '   ⋯\n' })
    : h('span', { class: `ln ${l.role}`, text: `${l.role === 'cause' ? '▶' : ' '}${String(l.n).padStart(4)}  ${l.text}\n` }))));
}

function diagnosisView(model, d, w, canEdit) {
  const fixes = d.fixes.length
    ? h('div', { class: 'nba-fixes' }, h('b', { text: w.ui_fixes }),
      h('ol', {}, d.fixes.map((f, i) => fixView(model, f, i + 1, w, canEdit))))
    : d.hint && h('p', { class: 'nba-hint', text: d.hint });
  return h('div', { class: 'nba-diag', 'data-cause': d.cause },
    h('div', { class: 'nba-title' }, h('span', { text: d.title }), h('span', { class: 'nba-cause', text: d.cause })),
    h('p', { text: d.what }), d.why && h('p', { class: 'nba-why', text: d.why }), codeView(d.lines), fixes);
}

function header(model, v, w) {
  const lang = model.get('lang');
  const sw = v.can_switch && h('div', { class: 'nba-lang', role: 'group' }, LANGS.map(([code, name]) => h('button', {
    class: `nba-btn small${code === lang ? ' on' : ''}`, 'data-lang': code, 'aria-pressed': String(code === lang),
    onclick: () => { if (code !== model.get('lang')) { model.set('lang', code); model.save_changes(); } },
  }, name)));
  return h('div', { class: 'nba-head' }, h('b', { text: v.silent ? w.ui_silent_heading : w.ui_heading }), sw);
}

function explanationView(model, v, w, canEdit) {
  const [top, ...rest] = v.diagnoses || [];
  return h('div', { class: 'nba-expl' },
    v.error && h('div', { class: 'nba-error', text: v.error }),
    v.unknown && h('p', { text: w.ui_unknown }),
    v.unknown && v.unrecognised && h('p', { class: 'nba-unrecognised', text: v.unrecognised }),
    top && diagnosisView(model, top, w, canEdit),
    v.trace && h('p', { class: 'nba-trace' }, h('i', { text: `${w.ui_trace}: ` }), v.trace),
    rest.length > 0 && h('details', { class: 'nba-other' }, h('summary', { text: w.other }),
      rest.map((d) => diagnosisView(model, d, w, canEdit))));
}

function detailsView(item, w, onCollapse) {
  const badge = (on, cls, key) => on && h('span', { class: `nba-badge ${cls}`, text: w[key] || key });
  const rows = item.saved.map(([name, shape, dtype, n, state]) => h('tr', { class: state },
    h('td', { text: name }), h('td', { text: shape }), h('td', { text: dtype }),
    h('td', { text: n ? bytes(n) : '–' }), h('td', { text: w[state] || state })));
  return [
    h('div', { class: 'nba-d-title' }, h('b', { text: item.op }), badge(true, item.state, item.state),
      badge(item.failed, 'failed', 'failed'), badge(item.stale, 'stale', 'stale'), badge(item.leaf, 'leaf', 'leaf'),
      badge(item.root, 'root', 'root')),
    rows.length > 0 && h('table', { class: 'nba-saved' }, h('caption', { text: w.saved }),
      h('tr', {}, ['name', 'shape', 'dtype', 'bytes', 'state'].map((k) => h('th', { text: w[k] }))), rows),
    item.facts.map((f) => h('div', { class: 'nba-fact', text: f })),
    item.parent && h('button', { class: 'nba-btn small', onclick: onCollapse }, w.collapse_block)];
}

function graphView(model, w) {
  const host = h('div', { class: 'nba-svg' });
  const details = h('div', { class: 'nba-details', text: w.graph_hint });
  const count = h('span', { class: 'nba-count' });
  let svg = null; let vb = null; let natural = null; let down = null;
  const send = (action, key) => { count.textContent = w.working; host.classList.add('busy'); model.send({ action, key }); };
  const setVB = () => svg && svg.setAttribute('viewBox', vb.map((x) => x.toFixed(2)).join(' '));
  const scale = () => { const r = svg.getBoundingClientRect(); return Math.max(vb[2] / r.width, vb[3] / r.height); };
  const zoom = (f, cx, cy) => {
    if (!svg) return;
    const r = svg.getBoundingClientRect(); const s = scale();
    const px = vb[0] + (vb[2] - r.width * s) / 2 + ((cx ?? r.left + r.width / 2) - r.left) * s;
    const py = vb[1] + (vb[3] - r.height * s) / 2 + ((cy ?? r.top + r.height / 2) - r.top) * s;
    vb = [px - (px - vb[0]) * f, py - (py - vb[1]) * f, vb[2] * f, vb[3] * f];
    setVB();
  };
  const tool = (label, fn, act) => h('button', { class: 'nba-btn small', 'data-act': act, onclick: fn }, label);
  const legend = h('span', { class: 'nba-legend' }, ['live', 'freed', 'none', 'failed', 'stale', 'leaf'].map((k) => h('span', { class: `sw ${k}`, text: w[k] })));
  const toolbar = h('div', { class: 'nba-toolbar' }, h('b', { text: w.graph }), count,
    tool('+', () => zoom(0.8), 'zoom-in'), tool('−', () => zoom(1.25), 'zoom-out'),
    tool(w.fit, () => { vb = natural.slice(); setVB(); }, 'fit'),
    tool(w.expand_all, () => send('expand_all'), 'expand-all'), tool(w.collapse_all, () => send('reset'), 'reset'));
  const pick = (target) => {
    const node = target.closest && target.closest('g.node');
    const items = (model.get('graph') || {}).items || {};
    const item = node && items[node.getAttribute('id')];
    if (!item) return;
    svg.querySelectorAll('g.node.selected').forEach((s) => s.classList.remove('selected'));
    node.classList.add('selected');
    const id = node.getAttribute('id');
    if (item.kind === 'block') { send('expand', id); return; }
    details.replaceChildren(...detailsView(item, w, () => send('collapse', id)).flat().filter(Boolean));
  };
  host.addEventListener('wheel', (ev) => { if (svg) { ev.preventDefault(); zoom(ev.deltaY < 0 ? 0.85 : 1 / 0.85, ev.clientX, ev.clientY); } }, { passive: false });
  host.addEventListener('pointerdown', (ev) => { down = { x: ev.clientX, y: ev.clientY, vb: vb && vb.slice(), moved: false }; });
  host.addEventListener('pointermove', (ev) => {
    if (!down || !svg || !(ev.buttons & 1)) return;
    const dx = ev.clientX - down.x; const dy = ev.clientY - down.y;
    if (Math.abs(dx) + Math.abs(dy) > 4) down.moved = true;
    if (down.moved) { const s = scale(); vb = [down.vb[0] - dx * s, down.vb[1] - dy * s, vb[2], vb[3]]; setVB(); }
  });
  host.addEventListener('pointerup', (ev) => { if (down && !down.moved) pick(ev.target); down = null; });
  const draw = () => {
    const g = model.get('graph') || {};
    host.classList.remove('busy');
    count.textContent = g.total ? fmt(w.items, { shown: g.shown, total: g.total }) : '';
    if (g.partial) count.textContent += ` · ${fmt(w.partial, { total: g.total })}`;
    if (g.notice) count.textContent += ` · ${g.notice}`;
    if (g.notice && svg) return;  // nothing opened: keep the picture and the zoom
    host.replaceChildren();
    svg = null;
    const doc = g.svg ? new DOMParser().parseFromString(g.svg, 'image/svg+xml') : null;
    const root = doc && doc.documentElement;
    if (!root || root.localName !== 'svg' || doc.getElementsByTagName('parsererror').length) {
      host.append(h('div', { class: 'nba-empty', text: g.error || w.no_graph }));
      return;
    }
    for (const el of Array.from(root.querySelectorAll('*'))) {
      if (!SVG_TAGS.has(el.localName)) { el.remove(); continue; }
      for (const a of Array.from(el.attributes)) if (/^on|href/i.test(a.name)) el.removeAttribute(a.name);
    }
    svg = document.importNode(root, true);
    natural = svg.getAttribute('viewBox').split(/[\s,]+/).map(Number);
    vb = natural.slice();
    svg.removeAttribute('width'); svg.removeAttribute('height');
    host.style.height = `${Math.round(Math.min(Math.max(natural[3] * 1.1, 160), 560))}px`;
    host.append(svg);
    focus();
  };
  // Start readable: when fitting everything would shrink text below ~60%, show the
  // neighbourhood of the failing node (or the root) at 80% instead; Fit shows it all.
  const focus = () => {
    const r = svg.getBoundingClientRect();
    const s = Math.max(natural[2] / r.width, natural[3] / r.height);
    const g = model.get('graph') || {};
    const target = (g.focus && svg.querySelector(`g.node[id="${CSS.escape(g.focus)}"]`))
      || svg.querySelector('g.node.failed') || svg.querySelector('g.node.root');
    if (s <= 1.6 || !target || !r.width) { setVB(); return; }
    const shift = (svg.querySelector('g.graph')?.getAttribute('transform') || '').match(/translate\(([-\d.]+)[ ,]+([-\d.]+)\)/);
    const b = target.getBBox();
    const cx = b.x + b.width / 2 + (shift ? +shift[1] : 0); const cy = b.y + b.height / 2 + (shift ? +shift[2] : 0);
    const w = r.width * 1.25; const hh = r.height * 1.25;
    const clamp = (v, lo, size, win) => (win >= size ? lo - (win - size) / 2 : Math.min(Math.max(v, lo), lo + size - win));
    const x = clamp(cx - w / 2, natural[0], natural[2], w);
    const y = clamp(cy - hh / 3, natural[1], natural[3], hh);
    vb = [x, y, w, hh];
    setVB();
  };
  return { el: h('div', { class: 'nba-graph' }, toolbar, legend, h('div', { class: 'nba-graph-body' }, host, details)), draw };
}

// The kernel shows a static copy of the explanation just before the widget, for exported and
// shared notebooks; where the widget itself renders, that copy is hidden (never removed).
function hideStaticCopy(el, tries = 0) {
  const child = el.closest('.jp-OutputArea-child');
  const copy = child && child.previousElementSibling;
  if (copy && copy.querySelector('.nba-static')) copy.style.display = 'none';
  else if (!child && tries < 20) setTimeout(() => hideStaticCopy(el, tries + 1), 50);
}

function render({ model, el }) {
  const root = h('div', { class: 'nba-w' });
  el.append(root);
  hideStaticCopy(el);
  let graph = null;
  const full = () => {
    const v = model.get('view') || {};
    const w = v.words || {};
    const canEdit = Boolean(notebook(model) && v.cell_id);
    root.dataset.edit = canEdit ? 'notebook' : 'copy';
    const g = model.get('graph') || {};
    graph = g.total || g.error ? graphView(model, w) : null;  // errors without a graph: no panel
    root.replaceChildren(...[header(model, v, w), explanationView(model, v, w, canEdit), graph && graph.el].filter(Boolean));
    if (graph) graph.draw();
  };
  const onGraph = () => graph && graph.draw();
  model.on('change:view', full);
  model.on('change:graph', onGraph);
  full();
  return () => { model.off('change:view', full); model.off('change:graph', onGraph); };
}

export default { render };
