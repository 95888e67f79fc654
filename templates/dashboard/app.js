/* global document, window, vegaEmbed */
// The dashboard: loads data/cases.js, the chart templates and, per case, one data file per month
// (written by `gnes-latency-bench render` and by every append), and draws the chosen case and
// metric. The data comes as script files calling window.glbData, not through fetch(), so the page
// works from file:// as well as over HTTP. History text is untrusted: it only ever reaches the
// page through textContent and vetted http(s) links, never as HTML.
;(function () {
  'use strict'
  var MAX_ROWS = 1000
  var state = { data: null, charts: null, views: [], months: {}, entries: {} }
  var zero = function () {
    return 0
  }
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

  function spec(template, params, values) {
    var s = fillTemplate(template, params)
    s.data = { values: values }
    return s
  }

  function valueOf(entry, metric) {
    if (metric === 'dataRateMBps' || metric === 'legacyMBps') return entry[metric]
    return entry.best[metric]
  }

  function metricLabel(metric) {
    return state.data.labels[metric] || metric
  }

  function isRate(metric) {
    return metric === 'dataRateMBps' || metric === 'legacyMBps'
  }

  function trendRows(entries, metric) {
    var rows = []
    entries.forEach(function (e, i) {
      var v = valueOf(e, metric)
      if (typeof v !== 'number' || !isFinite(v)) return
      rows.push({
        version: e.version,
        order: entries.length - i,
        value: v,
        series: metricLabel(metric),
        built: e.built,
        evaluated: e.evaluated,
        commit: e.commit,
        message: e.message
      })
    })
    return rows
  }

  // Mean of each hop per version, as src/render/charts.ts does for the README's hop chart.
  function hopRows(entries, hops) {
    var groups = {}
    var versions = []
    entries.forEach(function (e, i) {
      var g = groups[e.version]
      if (!g) {
        g = groups[e.version] = { sums: hops.map(zero), counts: hops.map(zero) }
        versions.push(e.version)
      }
      // Entries arrive newest first, so the last one seen gives the version its oldest position.
      g.order = entries.length - i
      hops.forEach(function (m, j) {
        var v = e.best[m]
        if (typeof v !== 'number' || !isFinite(v)) return
        g.sums[j] += v
        g.counts[j] += 1
      })
    })
    var rows = []
    versions.forEach(function (version) {
      var g = groups[version]
      hops.forEach(function (hop, j) {
        if (g.counts[j] === 0) return
        rows.push({
          version: version,
          order: g.order,
          hop: hop,
          position: j,
          value: g.sums[j] / g.counts[j],
          runs: g.counts[j]
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

  function renderTable(c, entries) {
    var table = $('table')
    table.replaceChildren()
    var head = document.createElement('tr')
    var names = ['Build', 'Version', 'Commit', 'Message']
      .concat(
        c.metrics.map(function (m) {
          return m + ' (s)'
        })
      )
      .concat([state.data.labels.dataRateMBps, state.data.labels.legacyMBps])
    names.forEach(function (n) {
      head.appendChild(cell('th', n))
    })
    var thead = document.createElement('thead')
    thead.appendChild(head)
    var tbody = document.createElement('tbody')
    entries.slice(0, MAX_ROWS).forEach(function (e) {
      var tr = document.createElement('tr')
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
      c.metrics.forEach(function (m) {
        tr.appendChild(cell('td', fixed(e.best[m], 3)))
      })
      tr.appendChild(cell('td', fixed(e.dataRateMBps, 1)))
      tr.appendChild(cell('td', fixed(e.legacyMBps, 0)))
      tbody.appendChild(tr)
    })
    table.appendChild(thead)
    table.appendChild(tbody)
    $('table-note').textContent =
      entries.length > MAX_ROWS
        ? 'Showing the newest ' + MAX_ROWS + ' of ' + entries.length + ' entries.'
        : entries.length + ' entries, newest first.'
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
    c.metrics.concat(['dataRateMBps', 'legacyMBps']).forEach(function (m) {
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

  // Every month of the case, loaded once; entries newest first across months.
  function caseEntries(c) {
    if (state.entries[c.id]) return Promise.resolve(state.entries[c.id])
    return Promise.all(
      c.months.map(function (m) {
        return loadScript('data/' + encodeURIComponent(c.file) + '/' + m + '.js')
      })
    ).then(function () {
      var all = []
      c.months.forEach(function (m) {
        all = all.concat(state.months[c.id + '/' + m] || [])
      })
      state.entries[c.id] = all.sort(byNewest)
      return state.entries[c.id]
    })
  }

  function draw() {
    var c = selectedCase()
    $('status').textContent = 'Loading case ' + c.id + '…'
    return caseEntries(c).then(function (entries) {
      return drawEntries(c, entries)
    })
  }

  function drawEntries(c, entries) {
    var metric = $('metric').value
    var title = 'Case ' + c.id + ': ' + c.name
    state.views.forEach(function (v) {
      v.finalize()
    })
    state.views = []
    $('description').textContent = c.description
    $('status').textContent = 'Rendering…'
    var points = trendRows(entries, metric)
    var trend = spec(
      state.charts.trend,
      {
        title: title,
        subtitle: metricLabel(metric) + ' per entry',
        yTitle: isRate(metric) ? 'MB/s' : metric + ' (s)',
        format: isRate(metric) ? '.1f' : '.3f',
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
    var rows = hopRows(entries, c.hops)
    if (rows.length) {
      var hops = spec(
        state.charts.hops,
        { title: title, subtitle: 'where the time goes', hopOrder: c.hops },
        rows
      )
      jobs.push(embed('#hops', hops))
    } else {
      $('hops').replaceChildren()
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

  function start() {
    Promise.all([loadScript('data/cases.js'), loadScript('dashboard/charts.js')])
      .then(function () {
        if (!state.data || !state.charts) throw new Error('the data files are incomplete')
        if (!state.data.cases.length) throw new Error('the history is empty')
        state.data.cases.forEach(function (c) {
          var option = cell('option', 'Case ' + c.id + ': ' + c.name)
          option.value = c.id
          $('case').appendChild(option)
        })
        fillMetrics(selectedCase())
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
