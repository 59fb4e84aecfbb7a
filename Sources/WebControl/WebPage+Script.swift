extension WebPage {
    /// The page's module: draws the state (`GET /api/v1/state`), sends
    /// commands (`POST /api/v1/commands`), follows the events stream and
    /// its meters, and reconnects (reading the state anew) when it drops.
    static let script = ##"""
        const token = new URLSearchParams(location.search).get('token');
        const headers = token ? { 'X-Fxhost-Token': token } : {};
        const $ = (id) => document.getElementById(id);
        const controls = new Map();   // "node symbol" -> control
        let state = null;
        let audioFiles = { folder: '', files: [] };   // GET /api/v1/files: the patch folder's audio files
        let selected = null;
        let socket = null;
        let retry = 500;

        // ---- the API

        async function getJSON(path) {
          const reply = await fetch(path, { headers, cache: 'no-store' });
          return reply.json();
        }

        /// Sends one command; a refusal's sentence is shown at `where` and in the log.
        async function command(fields, where) {
          let reply;
          try {
            const response = await fetch('/api/v1/commands', {
              method: 'POST', headers: { ...headers, 'Content-Type': 'application/json' },
              body: JSON.stringify({ v: 1, ...fields }) });
            reply = await response.json();
          } catch (error) {
            reply = { ok: false, error: 'fxhost cannot be reached: ' + error.message };
          }
          if (where) where.textContent = reply.ok ? '' : reply.error;
          if (!reply.ok) log(reply.error, true);
          return reply;
        }

        function log(text, refused) {
          const item = document.createElement('li');
          item.textContent = text;
          if (refused) item.className = 'refused';
          $('log').prepend(item);
          while ($('log').children.length > 50) $('log').lastChild.remove();
        }

        // ---- numbers

        /// About a hundredth of the range, rounded down to 1, 2 or 5 times a power of ten (1 dB for eg-amp's 114 dB).
        function niceStep(span) {
          const raw = span / 100, power = Math.pow(10, Math.floor(Math.log10(raw)));
          for (const factor of [5, 2, 1]) if (factor * power <= raw) return factor * power;
          return power;
        }

        function format(parameter, value) {
          if (parameter.options) {
            const option = parameter.options.find((o) => o.value === value);
            if (option) return option.label;
          }
          if (parameter.toggle) return value >= 0.5 ? 'on' : 'off';
          const span = Math.abs(parameter.maximum - parameter.minimum);
          const digits = parameter.integer ? 0 : span >= 100 ? 1 : span >= 10 ? 2 : 3;
          const text = Number(value).toFixed(digits);
          return parameter.unit ? `${text} ${unitText(parameter.unit)}` : text;
        }

        function unitText(unit) {
          const known = { db: 'dB', hz: 'Hz', khz: 'kHz', ms: 'ms', s: 's', pc: '%', bpm: 'BPM', semitone12TET: 'semitones',
                          cent: 'cents', degree: '°', oct: 'octaves', midiNote: 'note', frame: 'frames', coef: '' };
          return unit in known ? known[unit] : unit;
        }

        // ---- controls

        /// A slider: role slider, keyboard (arrows, Page Up/Down, Home/End), pointer and touch,
        /// double-click or a long press for the default; log scale where the plugin asks.
        function slider(node, parameter) {
          const name = `${node} ${parameter.symbol}`;
          const element = document.createElement('div');
          element.className = 'slider';
          element.tabIndex = 0;
          element.setAttribute('role', 'slider');
          element.setAttribute('aria-label', name);
          element.setAttribute('aria-valuemin', parameter.minimum);
          element.setAttribute('aria-valuemax', parameter.maximum);
          element.innerHTML = '<div class="rail"></div><div class="level"></div><div class="thumb"></div>';
          const logScale = parameter.scale === 'log' && parameter.minimum > 0;
          const toPosition = (value) => logScale
            ? Math.log(value / parameter.minimum) / Math.log(parameter.maximum / parameter.minimum)
            : (value - parameter.minimum) / (parameter.maximum - parameter.minimum);
          const fromPosition = (position) => {
            const p = Math.min(1, Math.max(0, position));
            let value = logScale ? parameter.minimum * Math.pow(parameter.maximum / parameter.minimum, p)
                                 : parameter.minimum + p * (parameter.maximum - parameter.minimum);
            return clamp(value);
          };
          const step = parameter.integer ? 1 : niceStep(parameter.maximum - parameter.minimum);
          const clamp = (value) => {
            let v = Math.min(parameter.maximum, Math.max(parameter.minimum, value));
            if (parameter.integer) v = Math.round(v);
            else v = Math.round(v / (step / 100)) * (step / 100);  // no float dust in what is sent
            return Number(v.toPrecision(10));
          };
          const control = makeControl(node, parameter, element, (value) => {
            const position = Math.min(1, Math.max(0, toPosition(value)));
            element.querySelector('.thumb').style.left = `${position * 100}%`;
            element.querySelector('.level').style.width = `${position * 100}%`;
            element.setAttribute('aria-valuenow', value);
            element.setAttribute('aria-valuetext', format(parameter, value));
          });
          element.addEventListener('keydown', (event) => {
            const value = control.value;
            const logStep = (direction, size) => fromPosition(toPosition(value) + direction * size);
            const moves = {
              ArrowRight: () => logScale ? logStep(1, 0.01) : value + step, ArrowUp: () => logScale ? logStep(1, 0.01) : value + step,
              ArrowLeft: () => logScale ? logStep(-1, 0.01) : value - step, ArrowDown: () => logScale ? logStep(-1, 0.01) : value - step,
              PageUp: () => logScale ? logStep(1, 0.1) : value + step * 10, PageDown: () => logScale ? logStep(-1, 0.1) : value - step * 10,
              Home: () => parameter.minimum, End: () => parameter.maximum,
            };
            if (!(event.key in moves)) return;
            event.preventDefault();
            control.change(clamp(moves[event.key]()));
          });
          let pressTimer = null;
          const positionOf = (event) => {
            const box = element.getBoundingClientRect();
            return (event.clientX - box.left) / box.width;
          };
          element.addEventListener('pointerdown', (event) => {
            element.setPointerCapture(event.pointerId);
            element.focus();
            control.dragging = true;
            control.change(fromPosition(positionOf(event)));
            const startX = event.clientX;
            pressTimer = setTimeout(() => { control.change(parameter.defaultValue); pressTimer = null; }, 700);
            element.dataset.startX = startX;
          });
          element.addEventListener('pointermove', (event) => {
            if (!control.dragging) return;
            if (pressTimer && Math.abs(event.clientX - element.dataset.startX) > 6) { clearTimeout(pressTimer); pressTimer = null; }
            if (!pressTimer) control.change(fromPosition(positionOf(event)));
          });
          const release = () => {
            if (pressTimer) { clearTimeout(pressTimer); pressTimer = null; }
            control.dragging = false;
            control.settle();
          };
          element.addEventListener('pointerup', release);
          element.addEventListener('pointercancel', release);
          element.addEventListener('dblclick', () => control.change(parameter.defaultValue));
          // Under the slider, before the row's refusal line (the row is a grid).
          if (parameter.points) control.row.lastChild.before(pointsMenu(name, parameter, control));
          return control;
        }

        /// A port's scale points beside its slider: choosing one sets the parameter to it;
        /// the menu then shows its title again (the slider shows the value).
        function pointsMenu(name, parameter, control) {
          const element = document.createElement('select');
          element.className = 'points';
          element.setAttribute('role', 'combobox');
          element.setAttribute('aria-label', `${name} points`);
          const title = document.createElement('option');
          title.value = '';
          title.textContent = 'points';
          element.append(title);
          for (const point of parameter.points) {
            const item = document.createElement('option');
            item.value = point.value;
            item.textContent = `${point.label} (${format({ ...parameter, options: null }, point.value)})`;
            element.append(item);
          }
          element.addEventListener('change', () => {
            if (element.value !== '') control.change(Number(element.value));
            element.value = '';
          });
          return element;
        }

        function toggle(node, parameter) {
          const element = document.createElement('button');
          element.type = 'button';
          element.setAttribute('role', 'switch');
          element.setAttribute('aria-label', `${node} ${parameter.symbol}`);
          const control = makeControl(node, parameter, element, (value) => {
            element.setAttribute('aria-checked', value >= 0.5 ? 'true' : 'false');
            element.textContent = value >= 0.5 ? 'on' : 'off';
          });
          element.addEventListener('click', () => control.change(control.value >= 0.5 ? parameter.minimum : parameter.maximum));
          return control;
        }

        function menu(node, parameter) {
          const element = document.createElement('select');
          element.setAttribute('aria-label', `${node} ${parameter.symbol}`);
          for (const option of parameter.options) {
            const item = document.createElement('option');
            item.value = option.value;
            item.textContent = option.label;
            element.append(item);
          }
          const control = makeControl(node, parameter, element, (value) => { element.value = value; });
          element.addEventListener('change', () => control.change(Number(element.value)));
          return control;
        }

        /// What every control shares: its value, sending (one request at a time, the latest
        /// value next), and the echo of its own change never pulling it back while it moves.
        function makeControl(node, parameter, element, show) {
          const row = document.createElement('div');
          row.className = 'param';
          const label = document.createElement('span');
          label.className = 'name';
          label.textContent = parameter.name;
          const value = document.createElement('span');
          value.className = 'value';
          value.setAttribute('aria-hidden', 'true');
          const learn = document.createElement('button');
          learn.type = 'button';
          learn.className = 'learn';
          // Waiting for a controller is the session's state (`learning`), so every open page shows it.
          const destination = `${node}:${parameter.symbol}`;
          const waiting = state?.learning === destination;
          learn.textContent = waiting ? 'waiting…' : 'learn';
          learn.setAttribute('aria-pressed', waiting ? 'true' : 'false');
          learn.setAttribute('aria-label', `learn ${node} ${parameter.symbol}`);
          const refusal = document.createElement('p');
          refusal.className = 'refusal';
          refusal.setAttribute('role', 'alert');
          // What the console prints for it: a learn waiting, or the controllers mapped to it.
          const binding = document.createElement('p');
          binding.className = 'binding';
          binding.dataset.binding = `${node} ${parameter.symbol}`;
          binding.setAttribute('aria-label', `${node} ${parameter.symbol} mapping`);
          binding.textContent = waiting ? `learning ${destination}: move a MIDI controller to map it`
            : (state?.mappings ?? []).filter((m) => mappingDestination(m) === destination).map((m) => `mapped ${m}`).join('; ');
          row.append(label, element, value, learn, binding, refusal);
          learn.addEventListener('click', () => command({ cmd: 'learn', node, param: parameter.symbol }, refusal));
          const control = {
            node, parameter, row, element, value: parameter.value, dragging: false, sending: false, next: null, echo: null,
            show(v) { control.value = v; show(v); value.textContent = format(parameter, v); },
            change(v) {
              if (v === control.value && !control.sending) return;
              control.show(v);
              control.next = v;
              control.pump();
            },
            async pump() {
              if (control.sending || control.next === null) return;
              const v = control.next;
              control.next = null;
              control.sending = true;
              const reply = await command({ cmd: 'set', node, param: parameter.symbol, value: v }, refusal);
              control.sending = false;
              if (!reply.ok && control.next === null && !control.dragging) control.echo = control.echo ?? parameter.value;
              if (control.next !== null) control.pump(); else control.settle();
            },
            /// An announced value: shown unless the control is moving, then kept for when it stops.
            announced(v) {
              if (control.dragging || control.sending || control.next !== null) { control.echo = v; return; }
              control.show(v);
            },
            settle() {
              if (control.dragging || control.sending || control.next !== null) return;
              if (control.echo !== null) { const v = control.echo; control.echo = null; control.show(v); }
            },
          };
          control.show(parameter.value);
          return control;
        }

        /// `amp:gain` of a mapping as the patch writes it (`{ cc: 7, to: amp:gain, range: [-30, 0] }`).
        function mappingDestination(mapping) {
          return /[{,]\s*to:\s*([^,}\s]+)/.exec(mapping)?.[1] ?? null;
        }

        // ---- drawing the session

        function render() {
          controls.clear();
          drawGraph();
          drawNodes();
          drawSession();
        }

        /// Columns by depth: a node sits one column right of the deepest node that feeds it.
        function depths() {
          const depth = new Map(state.nodes.map((n) => [n.name, 0]));
          const edges = state.connections.map((c) => [c.from.split(':')[0], c.to.split(':')[0]]);
          for (let pass = 0; pass < state.nodes.length; pass++) {
            let moved = false;
            for (const [from, to] of edges) {
              if (depth.has(from) && depth.has(to) && depth.get(to) < depth.get(from) + 1) { depth.set(to, depth.get(from) + 1); moved = true; }
            }
            if (!moved) break;
          }
          return depth;
        }

        function drawGraph() {
          const svg = $('graph');
          const ns = 'http://www.w3.org/2000/svg';
          svg.replaceChildren();
          const depth = depths();
          const rows = new Map();
          const place = new Map();
          const width = 120, height = 36, gapX = 40, gapY = 14;
          for (const node of state.nodes) {
            const column = depth.get(node.name);
            const row = rows.get(column) ?? 0;
            rows.set(column, row + 1);
            place.set(node.name, { x: 10 + column * (width + gapX), y: 10 + row * (height + gapY) });
          }
          const columns = Math.max(...depth.values()) + 1, most = Math.max(...rows.values());
          svg.setAttribute('width', 20 + columns * (width + gapX) - gapX);
          svg.setAttribute('height', 20 + most * (height + gapY) - gapY);
          for (const connection of state.connections) {
            const a = place.get(connection.from.split(':')[0]), b = place.get(connection.to.split(':')[0]);
            if (!a || !b) continue;
            const path = document.createElementNS(ns, 'path');
            const x1 = a.x + width, y1 = a.y + height / 2, x2 = b.x, y2 = b.y + height / 2;
            path.setAttribute('d', `M${x1},${y1} C${x1 + gapX / 2},${y1} ${x2 - gapX / 2},${y2} ${x2},${y2}`);
            path.setAttribute('class', 'edge');
            svg.append(path);
          }
          const tapped = new Set(state.taps.filter((t) => t.state !== 'finished').map((t) => t.node));
          for (const node of state.nodes) {
            const { x, y } = place.get(node.name);
            const group = document.createElementNS(ns, 'g');
            group.setAttribute('class', `node ${node.kind}${node.bypassed ? ' bypassed' : ''}${selected === node.name ? ' selected' : ''}`);
            group.setAttribute('transform', `translate(${x},${y})`);
            group.dataset.node = node.name;
            const rect = document.createElementNS(ns, 'rect');
            rect.setAttribute('width', width); rect.setAttribute('height', height); rect.setAttribute('rx', 6);
            const text = document.createElementNS(ns, 'text');
            text.setAttribute('x', 8); text.setAttribute('y', 22);
            text.textContent = node.name.length > 15 ? node.name.slice(0, 14) + '…' : node.name;
            const title = document.createElementNS(ns, 'title');
            title.textContent = `${node.name} (${node.pluginName ?? node.kind})${node.bypassed ? ', bypassed' : ''}`;
            group.append(rect, text, title);
            if (tapped.has(node.name)) {
              const mark = document.createElementNS(ns, 'circle');
              mark.setAttribute('cx', width - 8); mark.setAttribute('cy', 8); mark.setAttribute('r', 4);
              mark.setAttribute('class', 'tap-mark');
              group.append(mark);
            }
            // A button to the keyboard and to screen readers too: Tab reaches it, Enter or Space opens its controls.
            group.setAttribute('role', 'button');
            group.setAttribute('tabindex', '0');
            group.setAttribute('aria-label', `${title.textContent}${tapped.has(node.name) ? ', tapped' : ''}`);
            group.addEventListener('click', () => select(node.name));
            group.addEventListener('keydown', (event) => {
              if (event.key === 'Enter' || event.key === ' ') { event.preventDefault(); select(node.name); }
            });
            svg.append(group);
          }
        }

        function select(name) {
          selected = name;
          document.querySelectorAll('#graph .node').forEach((g) => g.classList.toggle('selected', g.dataset.node === name));
          document.querySelectorAll('#nodes .panel').forEach((p) => p.classList.toggle('selected', p.dataset.node === name));
          const panel = document.querySelector(`#nodes .panel[data-node="${CSS.escape(name)}"]`);
          if (panel) { panel.scrollIntoView({ block: 'nearest' }); panel.querySelector('button, [role=slider], select')?.focus(); }
        }

        function drawNodes() {
          const container = $('nodes');
          container.replaceChildren();
          for (const node of state.nodes.filter((n) => n.kind === 'plugin')) {
            const panel = document.createElement('section');
            panel.className = 'panel' + (selected === node.name ? ' selected' : '');
            panel.dataset.node = node.name;
            panel.setAttribute('aria-label', node.name);
            const head = document.createElement('div');
            head.className = 'node-head';
            const title = document.createElement('h2');
            title.textContent = node.name;
            title.title = node.pluginName ?? '';
            const refusal = document.createElement('p');
            refusal.className = 'refusal';
            refusal.setAttribute('role', 'alert');
            const bypass = document.createElement('button');
            bypass.type = 'button';
            bypass.setAttribute('role', 'switch');
            bypass.setAttribute('aria-label', `bypass ${node.name}`);
            bypass.setAttribute('aria-checked', node.bypassed ? 'true' : 'false');
            bypass.textContent = 'bypass';
            bypass.dataset.bypass = node.name;
            bypass.addEventListener('click', () =>
              command({ cmd: 'bypass', node: node.name, on: bypass.getAttribute('aria-checked') !== 'true' }, refusal));
            const record = document.createElement('button');
            record.type = 'button';
            record.textContent = 'record';
            record.setAttribute('aria-label', `${node.name} record`);
            record.addEventListener('click', () =>
              command({ cmd: 'tap', at: node.name, file: `${node.name}-take.wav` }, refusal));
            head.append(title, bypass, record);
            if (node.presets && node.presets.length) {
              const presets = document.createElement('select');
              presets.setAttribute('aria-label', `${node.name} preset`);
              presets.append(new Option('preset…', ''));
              for (const name of node.presets) presets.append(new Option(name, name));
              presets.addEventListener('change', () => {
                if (presets.value) command({ cmd: 'preset', node: node.name, name: presets.value }, refusal);
                presets.value = '';
              });
              head.append(presets);
            }
            const savePreset = document.createElement('button');
            savePreset.type = 'button';
            savePreset.textContent = 'save preset';
            savePreset.setAttribute('aria-label', `${node.name} save preset`);
            savePreset.addEventListener('click', () => {
              const name = prompt(`A name for ${node.name}'s preset`);
              if (name) command({ cmd: 'preset.save', node: node.name, name }, refusal);
            });
            head.append(savePreset);
            panel.append(head, refusal);
            for (const parameter of node.parameters ?? []) {
              const control = parameter.options ? menu(node.name, parameter)
                : parameter.toggle ? toggle(node.name, parameter) : slider(node.name, parameter);
              controls.set(`${node.name} ${parameter.symbol}`, control);
              panel.append(control.row);
            }
            const properties = node.messageParameters
              ?? Object.entries(node.properties ?? {}).map(([name, value]) => ({ name, kind: 'text', value }));
            for (const property of properties) panel.append(propertyRow(node.name, property));
            container.append(panel);
          }
        }

        /// A message parameter: a path is a menu of the patch folder's audio files (relative to it)
        /// with the current one selected; another kind a field with a set button.
        function propertyRow(node, property) {
          const name = property.name;
          const row = document.createElement('div');
          row.className = 'param';
          const label = document.createElement('span');
          label.className = 'name';
          label.textContent = name;
          const refusal = document.createElement('p');
          refusal.className = 'refusal';
          refusal.setAttribute('role', 'alert');
          if (property.kind === 'path') {
            const menu = document.createElement('select');
            menu.setAttribute('aria-label', `${node} ${name}`);
            menu.dataset.property = `${node} ${name}`;
            menu.dataset.value = property.value ?? '';
            showFile(menu, property.value);
            menu.addEventListener('change', async () => {
              if (!menu.value) return;
              const reply = await command({ cmd: 'set', node, param: name, value: menu.value }, refusal);
              if (!reply.ok) showFile(menu, menu.dataset.value || null);  // the plugin keeps what it had
            });
            row.append(label, menu, refusal);
            return row;
          }
          const input = document.createElement('input');
          input.type = 'text';
          input.value = property.value ?? '';
          input.spellcheck = false;
          input.setAttribute('aria-label', `${node} ${name}`);
          input.dataset.property = `${node} ${name}`;
          const set = document.createElement('button');
          set.type = 'button';
          set.textContent = 'set';
          set.setAttribute('aria-label', `set ${node} ${name}`);
          set.addEventListener('click', () => command({ cmd: 'set', node, param: name, value: input.value }, refusal));
          row.append(label, input, set, refusal);
          return row;
        }

        /// Fills a file menu and selects `value` (an absolute path, as the session reports it): by its
        /// name relative to the patch's folder, or as itself when it lies outside; a placeholder when unset.
        function showFile(menu, value) {
          const prefix = audioFiles.folder.replace(/\/+$/, '') + '/';
          const relative = value && value.startsWith(prefix) ? value.slice(prefix.length) : value;
          const files = [...audioFiles.files];
          if (relative && !files.includes(relative)) files.unshift(relative);
          menu.replaceChildren(new Option('choose a file…', ''), ...files.map((file) => new Option(file, file)));
          menu.value = relative ?? '';
          menu.dataset.value = value ?? '';
        }

        function drawSession() {
          $('tempo').value = state.tempo.beatsPerMinute;
          $('transport').setAttribute('aria-checked', state.tempo.rolling ? 'true' : 'false');
          const scenes = $('scenes');
          scenes.replaceChildren();
          for (const scene of state.scenes) {
            const button = document.createElement('button');
            button.type = 'button';
            button.textContent = scene.name;
            button.setAttribute('aria-label', `scene ${scene.name}`);
            // With a glide (seconds) the scene's values move there over it; 0 or empty: in one block.
            // Anything else goes as typed, so the server refuses a bad glide in its own sentence.
            button.addEventListener('click', () => {
              const typed = $('scene-glide').value.trim();
              const glide = Number(typed);
              const fields = typed === '' || glide === 0 ? { cmd: 'scene', name: scene.name }
                : { cmd: 'scene', name: scene.name, glide: Number.isFinite(glide) ? glide : typed };
              command(fields, $('session-refusal'));
            });
            scenes.append(button);
          }
          $('scene-glide-label').hidden = state.scenes.length === 0;
          $('feedback').hidden = !state.feedback;
          drawSetlist(state.setlist);
          drawTaps(state.taps);
        }

        /// A setlist run's patches by name (the page never sees a path); a switch is announced
        /// as `setlist`, after which the state is read anew: the new patch's nodes and controls.
        function drawSetlist(setlist) {
          $('setlist').hidden = !setlist;
          if (!setlist) return;
          const select = $('setlist-patch');
          select.replaceChildren(...setlist.patches.map((name) => new Option(name, name)));
          select.value = setlist.name;
          $('setlist-prev').disabled = setlist.index === 0;
          $('setlist-next').disabled = setlist.index === setlist.patches.length - 1;
        }

        /// One row per tapped node: the tap commands act on every tap of a node.
        function drawTaps(taps) {
          const list = $('taps');
          list.className = 'taps';
          list.replaceChildren();
          const byNode = new Map();
          for (const tap of taps.filter((t) => t.state !== 'finished')) byNode.set(tap.node, [...(byNode.get(tap.node) ?? []), tap]);
          for (const [node, group] of byNode) {
            const paused = group.every((t) => t.state === 'paused');
            const row = document.createElement('div');
            row.className = 'tap';
            const text = document.createElement('span');
            text.dataset.tapTime = node;
            text.textContent = tapText(node, group);
            const pause = document.createElement('button');
            pause.type = 'button';
            pause.textContent = paused ? 'resume' : 'pause';
            pause.setAttribute('aria-label', `${paused ? 'resume' : 'pause'} tap ${node}`);
            pause.addEventListener('click', () =>
              command({ cmd: paused ? 'tap.resume' : 'tap.pause', at: node }, $('session-refusal')));
            const stop = document.createElement('button');
            stop.type = 'button';
            stop.textContent = 'stop';
            stop.setAttribute('aria-label', `stop tap ${node}`);
            stop.addEventListener('click', () => command({ cmd: 'untap', at: node }, $('session-refusal')));
            // The node's meters, filled by drawMeters from the stream's "tapped" (gone with the row).
            const meters = document.createElement('div');
            meters.className = 'meters';
            meters.dataset.tapMeters = node;
            row.append(text, pause, stop, meters);
            list.append(row);
          }
        }

        function tapText(node, group) {
          return `${node} → ` + group.map((t) => `${t.file.split('/').pop()} ${t.seconds.toFixed(1)} s ${t.state}`).join(', ');
        }

        // ---- meters

        /// One peak meter (role meter, its dBFS as text and aria-valuetext), made in `container` the first time.
        function drawMeter(container, id, label, peak) {
          let meter = document.getElementById(id);
          if (!meter) {
            meter = document.createElement('div');
            meter.className = 'meter';
            meter.id = id;
            meter.setAttribute('role', 'meter');
            meter.setAttribute('aria-label', label);
            meter.setAttribute('aria-valuemin', -60);
            meter.setAttribute('aria-valuemax', 0);
            meter.innerHTML = '<span class="label"></span><div class="track"><div class="fill"></div></div><span class="db"></span>';
            meter.querySelector('.label').textContent = label;
            container.append(meter);
          }
          const text = peak === null ? '-inf dBFS' : `${peak.toFixed(2)} dBFS`;
          meter.setAttribute('aria-valuenow', peak === null ? -60 : Math.max(-60, peak));
          meter.setAttribute('aria-valuetext', text);
          meter.dataset.peak = peak === null ? '-inf' : peak;
          meter.querySelector('.db').textContent = text;
          const fill = meter.querySelector('.fill');
          fill.style.width = `${peak === null ? 0 : Math.max(0, Math.min(100, (peak + 60) / 60 * 100))}%`;
          fill.classList.toggle('hot', peak !== null && peak > -0.1);
        }

        function drawMeters(event) {
          $('dsp').textContent = `${event.dspLoad.toFixed(1)} %`;
          $('xruns').textContent = event.xruns;
          for (const [node, channels] of Object.entries(event.outputs)) {
            channels.forEach((peak, index) => drawMeter($('meters'), `meter-${node}-${index}`,
              channels.length > 1 ? `${node} ${index + 1}` : node, peak));
          }
          // A tapped node's meters sit in its tap row: made with the row (a tap started), gone with it (stopped).
          for (const box of document.querySelectorAll('[data-tap-meters]')) {
            const node = box.dataset.tapMeters;
            const channels = Object.hasOwn(event.tapped ?? {}, node) ? event.tapped[node] : null;
            if (!Array.isArray(channels)) continue;
            channels.forEach((peak, index) => drawMeter(box, `tap-meter-${node}-${index}`,
              channels.length > 1 ? `${node} meter ${index + 1}` : `${node} meter`, peak));
          }
          for (const text of document.querySelectorAll('[data-tap-time]')) {
            const group = event.taps.filter((t) => t.node === text.dataset.tapTime && t.state !== 'finished');
            if (group.length) text.textContent = tapText(text.dataset.tapTime, group);
          }
          const bounce = event.bounce;
          $('bounce-progress').hidden = !bounce;
          $('bounce-cancel').hidden = !bounce;
          if (bounce) $('bounce-progress').value = bounce.secondsExpected > 0 ? bounce.secondsDone / bounce.secondsExpected : 0;
        }

        // ---- events

        function nodeOf(name) { return state?.nodes.find((n) => n.name === name); }

        function handle(event) {
          switch (event.event) {
            case 'hello':
              return;
            case 'meters':
              return drawMeters(event);
            case 'refused':
              log(`${event.source}: ${event.error}`, true);
              return;
            case 'error':
              log(event.error, true);
              return;
            case 'engine.crashed':
              // A plugin crashed the engine: said where the page shows alerts, and the restarted session read anew.
              log(`${event.source}: ${event.sentence}`, true);
              $('session-refusal').textContent = event.sentence;
              reload().catch((error) => log('the state could not be read: ' + error.message, true));
              return;
            case 'tempo.tap':
              // A first tap: no tempo yet, nothing to read anew.
              break;
            case 'parameter': case 'bypass': case 'property': case 'tempo': case 'transport':
              apply(event);
              // Heard while the state is read: the answer may predate it, so it is applied again once drawn.
              heard?.push(event);
              break;
            default:
              // Taps, presets, wiring, reloads, learning: the state read anew.
              reload().catch((error) => log('the state could not be read: ' + error.message, true));
          }
          log(`${event.source}: ${describe(event)}`);
        }

        /// A change of one value, in the state and on its control.
        function apply(event) {
          switch (event.event) {
            case 'parameter': {
              // The session stores a 32-bit float: shown to its 7 digits, not the double's dust.
              event.value = Number(event.value.toPrecision(7));
              const parameter = nodeOf(event.node)?.parameters?.find((p) => p.symbol === event.param);
              if (parameter) parameter.value = event.value;
              controls.get(`${event.node} ${event.param}`)?.announced(event.value);
              break;
            }
            case 'bypass': {
              const node = nodeOf(event.node);
              if (node) node.bypassed = event.on;
              document.querySelector(`[data-bypass="${CSS.escape(event.node)}"]`)?.setAttribute('aria-checked', event.on ? 'true' : 'false');
              document.querySelector(`#graph .node[data-node="${CSS.escape(event.node)}"]`)?.classList.toggle('bypassed', event.on);
              break;
            }
            case 'property': {
              const property = nodeOf(event.node)?.messageParameters?.find((p) => p.name === event.param);
              if (property) property.value = event.value;
              const input = document.querySelector(`[data-property="${CSS.escape(event.node + ' ' + event.param)}"]`);
              if (input?.tagName === 'SELECT') showFile(input, event.value);
              else if (input && document.activeElement !== input) input.value = event.value;
              break;
            }
            case 'tempo':
              if (document.activeElement !== $('tempo')) $('tempo').value = event.bpm;
              break;
            case 'transport':
              $('transport').setAttribute('aria-checked', event.rolling ? 'true' : 'false');
              break;
          }
        }

        function describe(event) {
          const { v, event: name, source, ...fields } = event;
          return `${name} ${Object.values(fields).map((f) => typeof f === 'object' ? JSON.stringify(f) : f).join(' ')}`;
        }

        /// The state read anew, one read at a time: a reload asked for during a read makes one more
        /// after it (an older answer never lands last), and the values announced during a read are
        /// applied again over what it drew: its answer may have been made before them (a controller
        /// turned, or a `set`, just after a learn or a tap) and would otherwise undo them.
        let reading = null, readAgain = false, heard = null;
        function reload() {
          if (reading) { readAgain = true; return reading; }
          reading = (async () => {
            try {
              do {
                readAgain = false;
                heard = [];
                const fresh = await getJSON('/api/v1/state');
                const listing = await getJSON('/api/v1/files');
                state = fresh;
                audioFiles = { folder: listing.folder ?? '', files: listing.files ?? [] };
                render();
                const missed = heard;
                heard = null;
                for (const event of missed) apply(event);
              } while (readAgain);
              document.body.dataset.ready = 'true';
            } finally {
              reading = null;
              heard = null;
            }
          })();
          return reading;
        }

        function connect() {
          const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/api/v1/events${token ? '?token=' + encodeURIComponent(token) : ''}`;
          socket = new WebSocket(url);
          socket.addEventListener('open', async () => {
            $('connection').textContent = 'live';
            $('connection').classList.add('live');
            socket.send(JSON.stringify({ meters: 30 }));
            // Caught up after the stream opened: no change falls between the two.
            // A read that fails (a server still starting) is not left at that:
            // the stream is opened anew, and the state read again.
            // The wait between tries grows until a read succeeds.
            try { await reload(); retry = 500; } catch (error) {
              log('the state could not be read: ' + error.message + '; trying again', true);
              socket.close();
            }
          });
          socket.addEventListener('message', (message) => {
            try { handle(JSON.parse(message.data)); } catch (error) { log(String(error), true); }
          });
          socket.addEventListener('close', () => {
            $('connection').textContent = 'reconnecting…';
            $('connection').classList.remove('live');
            document.body.dataset.ready = 'false';
            setTimeout(connect, retry);
            retry = Math.min(retry * 2, 5000);
          });
        }

        // ---- the session's own controls

        // Each tap is sent at once: the server counts it when it arrives and sets the tempo (`tempo tap`),
        // as the console, OSC and a footswitch do.
        $('tap-tempo').addEventListener('click', () => command({ cmd: 'tempo.tap' }, $('session-refusal')));
        $('feedback').addEventListener('click', () => command({ cmd: 'feedback' }, $('session-refusal')));
        $('tempo').addEventListener('change', () => {
          if ($('tempo').value !== '') command({ cmd: 'tempo', bpm: Number($('tempo').value) }, $('session-refusal'));
        });
        $('transport').addEventListener('click', () =>
          command({ cmd: 'transport', rolling: $('transport').getAttribute('aria-checked') !== 'true' }, $('session-refusal')));
        $('save').addEventListener('click', () => command({ cmd: 'save' }, $('session-refusal')));
        $('bounce').addEventListener('click', () => command({ cmd: 'bounce', file: $('bounce-file').value }, $('session-refusal')));
        $('setlist-prev').addEventListener('click', () => command({ cmd: 'prev' }, $('session-refusal')));
        $('setlist-next').addEventListener('click', () => command({ cmd: 'next' }, $('session-refusal')));
        $('setlist-patch').addEventListener('change', () =>
          command({ cmd: 'load', name: $('setlist-patch').value }, $('session-refusal')));
        $('bounce-cancel').addEventListener('click', () => command({ cmd: 'bounce.cancel' }, $('session-refusal')));

        connect();
        """##
}
