/* global document, window, vegaEmbed */
// The dashboard: loads data/cases.js (one option per series: a case under one load profile), the
// chart templates and, per case, one data file per month holding every profile's entries (written
// by `gnes-latency-bench render` and by every append), and draws the chosen series and metric. The
// data comes as script files calling window.glbData, not through fetch(), so the page works from
// file:// as well as over HTTP. History text is untrusted: it only ever reaches the page through
// textContent and vetted http(s) links, never as HTML.
;(function () {
  'use strict'
  var MAX_ROWS = 1000
  var state = { data: null, charts: null, views: [], months: {}, entries: {} }
  var $ = function (id) {
    return document.getElementById(id)
  }

  function fillTemplate(node, params) {
    if (typeof node === 'string') {
      var whole = /^\{\{(\w+)\}\}$/.exec(node)
      if (whole && whole[1] in params) return params[whole[1]]
      return node.replace(/\{\{(\w+)\}\}/g, function (m, k) {
        return k in params ? String(params[k]) : m
      })
    }
    if (Array.isArray(node)) {
      return node.map(function (n) {
        return fillTemplate(n, params)
      })
    }
    if (node && typeof node === 'object') {
      var out = {}
      Object.keys(node).forEach(function (k) {
        out[k] = fillTemplate(node[k], params)
      })
      return out
    }
    return node
  }

  // On a narrow screen a legend's row would run past the right edge: it wraps into columns, and
  // labels and titles longer than the screen end in an ellipsis.
  function fitLegends(node, room) {
    if (!node || typeof node !== 'object') return
    Object.keys(node).forEach(function (k) {
      var v = node[k]
      if (k === 'legend' && v && typeof v === 'object' && !Array.isArray(v)) {
        v.columns = Math.max(1, Math.floor(room / 170))
        v.labelLimit = Math.min(v.labelLimit || 160, room - 40)
      }
      fitLegends(v, room)
    })
  }

  // The README's charts are 720 px; here a chart takes its section's width, so a phone's 390 px
  // shows the chart, its axes and its legends.
  function spec(template, params, values) {
    var s = fillTemplate(template, params)
    s.data = { values: values }
    s.width = 'container'
    s.autosize = { type: 'fit-x', contains: 'padding' }
    var room = document.documentElement.clientWidth - 40
    if (room < 700) {
      fitLegends(s, room)
      if (s.title && typeof s.title === 'object') s.title.limit = room - 10
    }
    return s
  }

  function valueOf(c, entry, metric) {
    if (metric === 'dataRateMBps' || metric === 'legacyMBps') return entry[metric]
    if (metric === 'maxThroughput') return entry.sweep && entry.sweep.maxThroughput
    if (isPaired(c, metric)) {
      // Changes against another base do not compare: only the newest entry's base is drawn.
      var p = entry.paired
      return p && p.base === c.paired.base ? p.change[metric] * 100 : undefined
    }
    return entry.best[metric] * unitOf(metric).scale
  }

  // A metric's unit, axis title and factor from its stored figure (src/render/format.ts's
  // metricUnit): times in ms, CPU per request in CPU-ms, peak memory in MiB.
  function unitOf(metric) {
    return state.data.units[metric]
  }

  // A series of paired changes (`path vs base`), which the case offers beside its metrics.
  function isPaired(c, metric) {
    return !!c.paired && c.paired.metrics.indexOf(metric) >= 0
  }

  // Timings in milliseconds, as the README's tables (histories keep seconds).
  function axisTitle(c, metric) {
    if (metric === 'maxThroughput') return 'requests/s'
    if (isPaired(c, metric)) return metric + ' (% change)'
    return isRate(metric) ? 'MB/s' : metric + ' (' + unitOf(metric).axis + ')'
  }

  // Two decimals below 10 ms, so a sub-millisecond hop does not read 0.0 (src/render/format.ts).
  function fmtMs(v) {
    return typeof v === 'number' && isFinite(v) ? v.toFixed(Math.abs(v) < 10 ? 2 : 1) : '–'
  }

  function metricLabel(metric) {
    return state.data.labels[metric] || metric
  }

  // What a metric measures, as the README's metric list says it (a generic case's by its driver).
  function metricDoc(c, metric) {
    return state.data.docs[c.gnes ? 'gnes' : 'generic'][metric] || ''
  }

  // A series' profile is known to the page only by its traits (src/render/dashboard.ts).
  function isSweep(c) {
    return c.traits.chart === 'sweep'
  }

  function isRate(metric) {
    return metric === 'dataRateMBps' || metric === 'legacyMBps'
  }

  // An entry's place on the x axis, as src/render/format.ts's entryPoint: its number in recording
  // order and its commit (else its day), unique per entry.
  function entryPoint(e, order) {
    return order + ' · ' + (e.commit || e.evaluated.slice(0, 10))
  }

  // The GNES release points are coloured by (the tag before the version label's commit); a
  // generic case's points by their series.
  function release(c, e, series) {
    return c.gnes ? e.version.split(' ')[0] : series
  }

  // Each change point is marked on its own metric's trend, at the first entry of the new level.
  function stepsOf(c, metric) {
    var marks = {}
    ;(c.steps || []).forEach(function (s) {
      if (s.metric === metric) marks[s.id] = s
    })
    return marks
  }

  function trendRows(c, entries, metric) {
    var rows = []
    var marks = stepsOf(c, metric)
    entries.forEach(function (e, i) {
      var v = valueOf(c, e, metric)
      if (typeof v !== 'number' || !isFinite(v)) return
      var step = marks[e.id]
      // A paced headline's spread, as the README's chart draws it (PointRow's p90 and p99).
      var tail = metric === c.headline && e.tail ? e.tail : null
      rows.push({
        point: entryPoint(e, entries.length - i),
        release: release(c, e, metricLabel(metric)),
        version: e.version,
        order: entries.length - i,
        value: v,
        series: metricLabel(metric),
        built: e.built,
        evaluated: e.evaluated,
        commit: e.commit,
        message: e.message,
        p90: tail ? tail.p90 * 1000 : undefined,
        p99: tail ? tail.p99 * 1000 : undefined,
        step: step ? step.text : undefined,
        stepLabel: step ? step.label : undefined,
        stepColor: step ? step.color : undefined
      })
    })
    return rows
  }

  // A generic case's rest: its latency (a burst's roundtrip) less the hops its system reported,
  // as unaccountedTime in src/render/metrics.ts (computed here, so older month files show it too).
  function unaccounted(e, hops) {
    var total = typeof e.best.latency === 'number' ? e.best.latency : e.best.roundtrip
    if (typeof total !== 'number') return null
    var covered = 0
    hops.forEach(function (h) {
      if (typeof e.best[h] === 'number') covered += e.best[h]
    })
    return Math.max(0, total - covered)
  }

  // One stacked bar per entry for the newest few, numbered as on the trend, as
  // src/render/charts.ts does for the README's hop chart.
  function hopRows(entries, hops, scale) {
    var rows = []
    entries.slice(0, state.data.hopEntries).forEach(function (e, i) {
      var at = entries.length - i
      hops.forEach(function (hop, j) {
        var v = hop === state.data.unaccounted ? unaccounted(e, hops) : e.best[hop]
        if (typeof v !== 'number' || !isFinite(v)) return
        rows.push({
          point: entryPoint(e, at),
          version: e.version,
          order: at,
          hop: hop,
          position: j,
          value: v * scale
        })
      })
    })
    return rows
  }

  function embed(target, chartSpec) {
    return vegaEmbed(target, chartSpec, { actions: false, renderer: 'svg' }).then(function (r) {
      state.views.push(r.view)
    })
  }

  function cell(tag, text, className) {
    var el = document.createElement(tag)
    el.textContent = text
    if (className) el.className = className
    return el
  }

  function fixed(v, digits) {
    return typeof v === 'number' && isFinite(v) ? v.toFixed(digits) : '–'
  }

  // A change with its sign (a true minus) and one decimal: `+5.3 %`, `−0.4 points`.
  function signed(v, unit) {
    return (v >= 0 ? '+' : '−') + Math.abs(v).toFixed(1) + ' ' + unit
  }

  function signedPercent(v) {
    return typeof v === 'number' && isFinite(v) ? signed(v, '%') : '–'
  }

  // A column's value as its cells show it: timings by fmtMs, other figures to fixed digits.
  function shown(col, v) {
    return col.format ? col.format(v) : fixed(v, col.digits)
  }

  // Throughput–latency: one line per percentile of each of the newest entries' sweeps.
  function sweepRows(entries) {
    var rows = []
    entries.slice(0, state.data.sweepCurves).forEach(function (e, i) {
      ;((e.sweep && e.sweep.points) || []).forEach(function (p) {
        ;['p50', 'p99'].forEach(function (percentile) {
          if (!(p[percentile] > 0)) return
          rows.push({
            entry: e.id,
            point: entryPoint(e, entries.length - i),
            version: e.version,
            order: entries.length - i,
            evaluated: e.evaluated,
            offered: p.offered,
            achieved: p.achieved,
            percentile: percentile,
            latency: p[percentile] * 1000,
            errors: p.errors,
            sustained: p.sustained ? 'yes' : 'no'
          })
        })
      })
    })
    return rows
  }

  function columns(c) {
    if (isSweep(c)) {
      return [
        {
          title: state.data.labels.maxThroughput + ' (req/s)',
          digits: 2,
          value: function (e) {
            return e.sweep && e.sweep.maxThroughput
          }
        },
        {
          title: 'steps',
          digits: 0,
          value: function (e) {
            return e.sweep ? e.sweep.points.length : null
          }
        }
      ]
    }
    var cols = c.metrics.map(function (m) {
      var u = unitOf(m)
      return {
        title: m + ' (' + u.unit + ')',
        format: u.decimals === undefined ? fmtMs : undefined,
        digits: u.decimals,
        value: function (e) {
          return e.best[m] * u.scale
        }
      }
    })
    // A paced series' tail: the headline's p90 and p99 in the run its median came from.
    if (c.traits.paced) {
      ;['p90', 'p99'].forEach(function (p) {
        cols.push({
          title: c.headline + ' ' + p + ' (ms)',
          format: fmtMs,
          value: function (e) {
            return e.tail ? e.tail[p] * 1000 : null
          }
        })
      })
    }
    // A paired case's changes against the newest base (other bases' show –, as in the chart).
    if (c.paired) {
      c.paired.metrics.forEach(function (m) {
        cols.push({
          title: m + ' (%)',
          points: true,
          format: signedPercent,
          value: function (e) {
            return valueOf(c, e, m)
          }
        })
      })
    }
    if (!c.traits.rates) return cols
    return cols.concat([
      {
        title: state.data.labels.dataRateMBps,
        digits: 1,
        value: function (e) {
          return e.dataRateMBps
        }
      },
      {
        title: state.data.labels.legacyMBps,
        digits: 0,
        value: function (e) {
          return e.legacyMBps
        }
      }
    ])
  }

  function renderTable(c, entries) {
    var table = $('table')
    table.replaceChildren()
    var head = document.createElement('tr')
    var cols = columns(c)
    var names = ['Compare', 'Build', 'Version', 'Commit', 'Message'].concat(
      cols.map(function (col) {
        return col.title
      })
    )
    names.forEach(function (n) {
      head.appendChild(cell('th', n))
    })
    var thead = document.createElement('thead')
    thead.appendChild(head)
    var tbody = document.createElement('tbody')
    var picked = []
    $('diff').replaceChildren()
    entries.slice(0, MAX_ROWS).forEach(function (e) {
      var tr = document.createElement('tr')
      var pick = document.createElement('input')
      pick.type = 'checkbox'
      pick.setAttribute('aria-label', 'compare ' + (e.commit || e.evaluated))
      pick.addEventListener('change', function () {
        picked = picked.filter(function (p) {
          return p.box !== pick
        })
        if (pick.checked) picked.push({ box: pick, e: e })
        // Two at a time: a third pick replaces the first.
        if (picked.length > 2) picked.shift().box.checked = false
        renderDiff(c, picked)
      })
      var pickCell = cell('td', '')
      pickCell.appendChild(pick)
      tr.appendChild(pickCell)
      tr.appendChild(cell('td', e.built))
      tr.appendChild(cell('td', e.version))
      var commit = cell('td', '')
      if (e.url) {
        var a = cell('a', e.commit)
        a.href = e.url
        a.rel = 'noopener noreferrer'
        commit.appendChild(a)
      } else {
        commit.textContent = e.commit || '–'
      }
      tr.appendChild(commit)
      var message = cell('td', e.message, 'message')
      message.title = e.message
      tr.appendChild(message)
      cols.forEach(function (col) {
        tr.appendChild(cell('td', shown(col, col.value(e))))
      })
      tbody.appendChild(tr)
    })
    table.appendChild(thead)
    table.appendChild(tbody)
    $('table-note').textContent =
      entries.length > MAX_ROWS
        ? 'Showing the newest ' + MAX_ROWS + ' of ' + entries.length + ' entries.'
        : entries.length === 1
          ? '1 entry.'
          : entries.length + ' entries, newest first.'
  }

  // Two picked entries side by side: each column's value in both, and the change, older first.
  function renderDiff(c, picked) {
    var box = $('diff')
    box.replaceChildren()
    if (picked.length < 2) return
    var pair = picked
      .map(function (p) {
        return p.e
      })
      .sort(function (a, b) {
        return a.evaluated < b.evaluated ? -1 : 1
      })
    var label = function (e) {
      return (e.commit || e.evaluated) + ' (' + e.evaluated + ')'
    }
    box.appendChild(cell('h2', label(pair[0]) + ' → ' + label(pair[1])))
    var list = document.createElement('ul')
    columns(c).forEach(function (col) {
      var a = col.value(pair[0])
      var b = col.value(pair[1])
      if (typeof a !== 'number' || typeof b !== 'number' || !isFinite(a) || !isFinite(b)) return
      // Two changes against the base differ by points, not by a ratio of ratios.
      var change = col.points
        ? ' (' + signed(b - a, 'points') + ')'
        : a === 0
          ? ''
          : ' (' + signed((b / a - 1) * 100, '%') + ')'
      list.appendChild(
        cell('li', col.title + ': ' + shown(col, a) + ' → ' + shown(col, b) + change)
      )
    })
    box.appendChild(list)
  }

  function selectedCase() {
    var id = $('case').value
    return state.data.cases.filter(function (c) {
      return c.id === id
    })[0]
  }

  function fillMetrics(c, keep) {
    var select = $('metric')
    select.replaceChildren()
    var metrics = isSweep(c)
      ? ['maxThroughput']
      : c.traits.rates
        ? c.metrics.concat(['dataRateMBps', 'legacyMBps'])
        : c.metrics
    if (c.paired && !isSweep(c)) metrics = metrics.concat(c.paired.metrics)
    metrics.forEach(function (m) {
      var option = cell('option', metricLabel(m))
      option.value = m
      select.appendChild(option)
    })
    if (
      keep &&
      [].some.call(select.options, function (o) {
        return o.value === keep
      })
    )
      select.value = keep
  }

  function loadScript(src) {
    return new Promise(function (resolve, reject) {
      var el = document.createElement('script')
      el.src = src
      el.onload = resolve
      el.onerror = function () {
        reject(new Error(src + ' did not load'))
      }
      document.body.appendChild(el)
    })
  }

  // Data files call these; each month file adds its entries under its case and month.
  window.glbData = {
    cases: function (data) {
      state.data = data
    },
    charts: function (charts) {
      state.charts = charts
    },
    month: function (data) {
      state.months[data.caseId + '/' + data.month] = data.entries
    }
  }

  function byNewest(a, b) {
    if (a.built !== b.built) return a.built < b.built ? 1 : -1
    if (a.evaluated !== b.evaluated) return a.evaluated < b.evaluated ? 1 : -1
    return a.id < b.id ? -1 : 1
  }

  // cases.js lists a case's months as ranges of consecutive months, newest first
  // ('2010-01..2016-11', or '2017-02' alone): every month they hold, newest first.
  function monthsOf(ranges) {
    var out = []
    ranges.forEach(function (r) {
      var ends = r.split('..')
      var first = Number(ends[0].slice(0, 4)) * 12 + Number(ends[0].slice(5, 7)) - 1
      var last =
        ends.length > 1 ? Number(ends[1].slice(0, 4)) * 12 + Number(ends[1].slice(5, 7)) - 1 : first
      for (var i = last; i >= first; i--) {
        out.push(
          String(Math.floor(i / 12)).padStart(4, '0') + '-' + String((i % 12) + 1).padStart(2, '0')
        )
      }
    })
    return out
  }

  // Every month of the series' case, loaded once; the series' entries newest first across months.
  function seriesEntries(c) {
    if (state.entries[c.id]) return Promise.resolve(state.entries[c.id])
    var months = monthsOf(c.months)
    return Promise.all(
      months.map(function (m) {
        if (state.months[c.caseId + '/' + m]) return null
        // data/<case>/<DDD0>s/<YYYY>/<MM>.js: months sit under their decade and year.
        var dir = m.slice(0, 3) + '0s/' + m.replace('-', '/')
        return loadScript('data/' + encodeURIComponent(c.file) + '/' + dir + '.js')
      })
    ).then(function () {
      var all = []
      months.forEach(function (m) {
        all = all.concat(state.months[c.caseId + '/' + m] || [])
      })
      state.entries[c.id] = all
        .filter(function (e) {
          return e.series === c.id
        })
        .sort(byNewest)
      return state.entries[c.id]
    })
  }

  // The URL's hash names what is shown (`#<case id>/<profile key>/<metric>`), so a view can be
  // linked to and survives a reload. Read as plain text and matched against the listed series.
  function fromHash() {
    var hash = decodeURIComponent(window.location.hash.replace(/^#/, ''))
    var c = state.data.cases.filter(function (x) {
      return hash === x.id || hash.indexOf(x.id + '/') === 0
    })[0]
    if (!c) return false
    $('case').value = c.id
    fillMetrics(c, hash.slice(c.id.length + 1) || undefined)
    return true
  }

  function toHash() {
    var hash = '#' + encodeURI($('case').value + '/' + $('metric').value)
    if (window.location.hash !== hash) window.history.replaceState(null, '', hash)
  }

  function draw() {
    var c = selectedCase()
    toHash()
    $('status').textContent = 'Loading case ' + c.caseId + ' (' + c.profile + ')…'
    return seriesEntries(c).then(function (entries) {
      return drawEntries(c, entries)
    })
  }

  function drawEntries(c, entries) {
    var metric = $('metric').value
    var title = 'Case ' + c.caseId + ': ' + c.name + ' — ' + c.profile
    state.views.forEach(function (v) {
      v.finalize()
    })
    state.views = []
    $('description').textContent = c.description
    $('metric-doc').textContent = metricLabel(metric) + ': ' + metricDoc(c, metric)
    $('status').textContent = 'Rendering…'
    var points = trendRows(c, entries, metric)
    var trend = spec(
      state.charts.trend,
      {
        title: title,
        xTitle: c.xTitle,
        colorField: c.gnes ? 'release' : 'series',
        colorTitle: c.gnes ? 'GNES release' : null,
        subtitle:
          metricLabel(metric) +
          ' per entry' +
          (isPaired(c, metric) ? ', against ' + c.paired.base : '') +
          (points.some(function (p) {
            return p.p90 !== undefined
          })
            ? ' (the line above a point reaches its p90)'
            : ''),
        yTitle: axisTitle(c, metric),
        format: metric === 'maxThroughput' ? '.2f' : '.1f',
        // As in the static charts: zero only when every value is the same.
        zero:
          new Set(
            points.map(function (p) {
              return p.value
            })
          ).size < 2
      },
      points
    )
    var jobs = [embed('#trend', trend)]
    var rows = hopRows(entries, c.hops, 1000)
    if (rows.length) {
      var hops = spec(
        state.charts.hops,
        {
          title: title,
          xTitle: c.xTitle,
          subtitle: 'where the time goes, newest ' + state.data.hopEntries + ' entries',
          hopOrder: c.hops,
          hopColors: c.hopColors,
          yTitle: c.traits.figure + ' ms per request, stacked by hop',
          valueTitle: c.traits.figure + ' (ms)',
          format: '.2f'
        },
        rows
      )
      jobs.push(embed('#hops', hops))
    } else {
      $('hops').replaceChildren()
    }
    var curves = isSweep(c) ? sweepRows(entries) : []
    if (curves.length) {
      var sweep = spec(
        state.charts.sweep,
        {
          title: title,
          xTitle: c.xTitle,
          subtitle:
            'throughput–latency, newest ' +
            state.data.sweepCurves +
            ' entries (p50 solid, p99 dashed)'
        },
        curves
      )
      jobs.push(embed('#sweep', sweep))
    } else {
      $('sweep').replaceChildren()
    }
    renderTable(c, entries)
    return Promise.all(jobs).then(function () {
      $('status').textContent = ''
      document.body.dataset.rendered = c.id + '/' + metric
    })
  }

  function fail(err) {
    $('status').textContent = 'Cannot show the history: ' + (err && err.message ? err.message : err)
    $('status').className = 'error'
  }

  // Every series' change points, newest first: where to look before reading any chart.
  function renderChanges(cases) {
    var all = []
    cases.forEach(function (c) {
      ;(c.steps || []).forEach(function (s) {
        all.push({ c: c, s: s })
      })
    })
    all.sort(function (a, b) {
      return a.s.when < b.s.when ? 1 : a.s.when > b.s.when ? -1 : 0
    })
    var box = $('changes')
    box.replaceChildren(cell('h2', 'Recent changes'))
    if (!all.length) {
      box.appendChild(cell('p', 'Change-point detection finds no step among the newest entries.'))
      return
    }
    var list = document.createElement('ul')
    all.slice(0, 10).forEach(function (x) {
      var text =
        'Case ' + x.c.caseId + ' — ' + x.c.profile + ': ' + x.s.text + ' (' + x.s.when + ')'
      list.appendChild(cell('li', text, x.s.label.charAt(0) === '+' ? 'slower' : 'faster'))
    })
    box.appendChild(list)
  }

  function start() {
    Promise.all([loadScript('data/cases.js'), loadScript('dashboard/charts.js')])
      .then(function () {
        if (!state.data || !state.charts) throw new Error('the data files are incomplete')
        if (!state.data.cases.length) throw new Error('the history is empty')
        // A history of generic (HTTP) cases alone is not GNES's: the data names the page.
        if (state.data.title) {
          document.title = state.data.title
          document.querySelector('h1').textContent = state.data.title
        }
        renderChanges(state.data.cases)
        state.data.cases.forEach(function (c) {
          var option = cell('option', 'Case ' + c.caseId + ': ' + c.name + ' — ' + c.profile)
          option.value = c.id
          $('case').appendChild(option)
        })
        if (!fromHash()) fillMetrics(selectedCase())
        window.addEventListener('hashchange', function () {
          if (fromHash()) draw().catch(fail)
        })
        $('case').addEventListener('change', function () {
          fillMetrics(selectedCase(), $('metric').value)
          draw().catch(fail)
        })
        $('metric').addEventListener('change', function () {
          draw().catch(fail)
        })
        return draw()
      })
      .catch(fail)
  }

  start()
})()
