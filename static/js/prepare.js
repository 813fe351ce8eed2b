/*
 * prepare.js: the prepare page ("my stack", /{lang}/prepare/).
 *
 * The page holds the form; each part of a stack and each product has a
 * file of its own (the form's data-src), a script that stores in
 * window.__ilprepare["components/ingress"] (or "products/ingress-nginx")
 * that part's cases (their parts, title, link and affected versions) and
 * their checklist as data: each line's text as HTML, its group, and its
 * cases as places in the file's list with how far each got. A file holds
 * at most its part's newest cases; then its "more" says how many the part
 * has and links the part's page, and the status line says so. This
 * script shows the form, reads the choice from the address
 * (?components=ingress,cni&ingress-nginx=1.11.2: the form's data-param
 * and the products' ids), loads the files of the chosen
 * parts and of the products given a version, lists the cases that apply
 * and merges those files' checklists into one, keeping only those cases'
 * links; it writes the choice back into the address. The files are loaded
 * as script elements, not fetched, so the page works from any host and
 * from the offline bundle opened from disk.
 *
 * A case applies when it has a chosen part, or names a product whose
 * version was given, unless it names that product only for other versions.
 * Versions compare as Go's cases.CompareVersions does.
 */
(function (root) {
  "use strict";

  // The catalogue's "js." words, by language; the site writes them in over
  // the marker below when it builds its assets (internal/site, loadAssets).
  var WORDS = /*catalogue*/null;

  var doc = root.document;
  var form = doc.getElementById("stack");
  if (!form) return;
  var lang = doc.documentElement.getAttribute("lang") || "en";
  var W = (WORDS && WORDS[lang]) || {};
  var param = form.getAttribute("data-param");
  var groups = (form.getAttribute("data-groups") || "").split(" ");
  // What the status line says of a part cut to its newest cases (the
  // page's words, not the script's, which the search page shares).
  var newest = form.getAttribute("data-newest") || "";
  var status = doc.getElementById("stack-status");
  var result = doc.getElementById("stack-result");
  var casesEl = doc.getElementById("stack-cases");
  var listEl = doc.getElementById("stack-checklist");
  var allEl = doc.getElementById("prepare-all");
  var titles = doc.getElementById("group-titles");
  var statuses = doc.getElementById("status-labels");

  function fill(s, args) {
    return String(s || "").replace(/%\[(\d)\]s/g, function (_, i) { return String(args[i - 1]); });
  }

  // Versions, as cases.IsVersion and cases.CompareVersions.
  var VERSION = /^v?[0-9]+(\.[0-9]+)*([-+][0-9A-Za-z.-]+)?$/;

  function split(v) {
    v = v.replace(/^[vV]/, "");
    var plus = v.indexOf("+");
    if (plus >= 0) v = v.slice(0, plus);
    var pre = "", dash = v.indexOf("-");
    if (dash >= 0) { pre = v.slice(dash + 1); v = v.slice(0, dash); }
    return { nums: v.split("."), pre: pre };
  }

  function digits(x, y) {
    x = x.replace(/^0+/, ""); y = y.replace(/^0+/, "");
    if (x.length !== y.length) return x.length < y.length ? -1 : 1;
    return x < y ? -1 : x > y ? 1 : 0;
  }

  function comparePre(x, y) {
    var xd = /^[0-9]+$/.test(x), yd = /^[0-9]+$/.test(y);
    if (xd && yd) return digits(x, y);
    if (xd) return -1;
    if (yd) return 1;
    return x < y ? -1 : x > y ? 1 : 0;
  }

  function compare(a, b) {
    var x = split(a), y = split(b), n = Math.max(x.nums.length, y.nums.length), i, c;
    for (i = 0; i < n; i++) {
      c = digits(x.nums[i] || "0", y.nums[i] || "0");
      if (c) return c;
    }
    if (x.pre === y.pre) return 0;
    if (!x.pre) return 1;
    if (!y.pre) return -1;
    var xp = x.pre.split("."), yp = y.pre.split(".");
    for (i = 0; i < Math.min(xp.length, yp.length); i++) {
      c = comparePre(xp[i], yp[i]);
      if (c) return c;
    }
    return xp.length < yp.length ? -1 : xp.length > yp.length ? 1 : 0;
  }

  // matches is cases.Affected.Matches.
  function matches(a, v) {
    if (!VERSION.test(v)) return false;
    var list = a.versions || [];
    for (var i = 0; i < list.length; i++) if (compare(list[i], v) === 0) return true;
    if (!a.introduced && !a.fixed && !a.last_affected) return false;
    if (a.introduced && a.introduced !== "0" && compare(v, a.introduced) < 0) return false;
    if (a.fixed && compare(v, a.fixed) >= 0) return false;
    if (a.last_affected && compare(v, a.last_affected) > 0) return false;
    return true;
  }

  // files holds each loaded file by its key ("components/ingress"): a
  // promise of {cases, checks}.
  var files = {};

  function load(key, src) {
    if (files[key]) return files[key];
    files[key] = new Promise(function (resolve, reject) {
      var s = doc.createElement("script");
      s.src = src;
      s.async = true;
      s.onload = function () {
        var store = root.__ilprepare || {};
        var v = store[key];
        delete store[key];
        s.remove();
        if (!v) {
          reject(new Error(src));
          return;
        }
        resolve({ cases: v.cases || [], checks: v.checks || [], more: v.more });
      };
      s.onerror = function () {
        s.remove();
        reject(new Error(src));
      };
      doc.head.appendChild(s);
    });
    files[key].catch(function () { delete files[key]; }); // a later choice tries again
    return files[key];
  }

  var boxes = [].slice.call(form.querySelectorAll('input[type=checkbox][name="' + param + '"]'));
  var inputs = [].slice.call(form.querySelectorAll("input[type=text]"));

  // readURL puts the address's choice into the form.
  function readURL() {
    var params = new URLSearchParams(root.location.search);
    var parts = (params.get(param) || "").split(",");
    boxes.forEach(function (b) { b.checked = parts.indexOf(b.value) >= 0; });
    inputs.forEach(function (i) { i.value = params.get(i.name) || ""; });
  }

  function writeURL(parts, versions) {
    var q = [];
    if (parts.length) q.push(encodeURIComponent(param) + "=" + parts.map(encodeURIComponent).join(","));
    inputs.forEach(function (i) {
      if (versions[i.name]) q.push(encodeURIComponent(i.name) + "=" + encodeURIComponent(versions[i.name]));
    });
    var url = q.length ? "?" + q.join("&") : root.location.pathname;
    if (url === root.location.search) return;
    try {
      root.history.replaceState(null, "", url);
    } catch (e) {
      // Some browsers refuse to change a file:// address; the page still works.
    }
  }

  function el(name, attrs, text) {
    var e = doc.createElement(name);
    Object.keys(attrs || {}).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    if (text) e.textContent = text;
    return e;
  }

  // merged is the checklist of the cases in applies: every part's items,
  // each once, with only those cases, by group, the most shared first.
  // A line that several files hold names, in each, only that file's
  // cases: its cases are gathered from all of them, each case once.
  function merged(applies, loaded) {
    var byIndex = {}, lines = [];
    loaded.forEach(function (f) {
      f.checks.forEach(function (c) {
        var l = byIndex[c.i];
        if (!l) {
          l = byIndex[c.i] = { i: c.i, html: c.html, from: [], ids: {}, group: groups.indexOf(c.group) };
          lines.push(l);
        }
        (c.from || []).forEach(function (k, j) {
          var fc = f.cases[k];
          if (fc && applies[fc.id] && !l.ids[fc.id]) {
            l.ids[fc.id] = true;
            l.from.push({ c: fc, status: (c.status && c.status[j]) || "", n: applies[fc.id].n });
          }
        });
      });
    });
    lines = lines.filter(function (l) { return l.from.length; });
    lines.forEach(function (l) {
      l.from.sort(function (x, y) { return x.n - y.n; });
    });
    lines.sort(function (a, b) { return a.group - b.group || b.from.length - a.from.length || a.i - b.i; });
    return lines;
  }

  // pill is the page's label of an action status, or null.
  function pill(status) {
    var p = status && statuses && statuses.content.querySelector(".pill.status-" + status);
    return p ? p.cloneNode(true) : null;
  }

  function line(l) {
    var li = el("li", { "data-i": l.i });
    var text = el("div", { "class": "check-text" });
    text.innerHTML = l.html;
    li.appendChild(text);
    var p = el("p", { "class": "from" });
    if (l.from.length > 1) {
      p.appendChild(el("strong", {}, fill(W.prepareShared, [l.from.length])));
      p.appendChild(doc.createTextNode(" · "));
    }
    l.from.forEach(function (f, k) {
      if (k) p.appendChild(doc.createTextNode(", "));
      p.appendChild(el("a", { href: f.c.href, title: f.c.title, "data-case": f.c.id }, f.c.id));
      var st = pill(f.status);
      if (st) {
        p.appendChild(doc.createTextNode(" "));
        p.appendChild(st);
      }
    });
    li.appendChild(p);
    return li;
  }

  var generation = 0;

  function update() {
    var parts = boxes.filter(function (b) { return b.checked; }).map(function (b) { return b.value; });
    var chosen = {}, versions = {}, bad = [];
    parts.forEach(function (p) { chosen[p] = true; });
    inputs.forEach(function (i) {
      var v = i.value.trim();
      if (!v) return;
      if (VERSION.test(v)) versions[i.name] = v;
      else bad.push(v);
    });
    writeURL(parts, versions);
    var products = Object.keys(versions);
    var notes = bad.map(function (v) { return fill(W.prepareBadVersion, [v]); });
    var gen = ++generation;
    if (!parts.length && !products.length) {
      result.hidden = true;
      allEl.hidden = false;
      status.textContent = notes.concat([W.prepareNone || ""]).join(" ");
      return;
    }
    var wanted = boxes.filter(function (b) { return b.checked; }).map(function (b) { return load(param + "/" + b.value, b.getAttribute("data-src")); });
    inputs.forEach(function (i) {
      if (versions[i.name]) wanted.push(load("products/" + i.name, i.getAttribute("data-src")));
    });
    status.textContent = notes.concat([W.prepareLoading || ""]).join(" ");
    Promise.all(wanted).then(function (loaded) {
      if (gen === generation) show(loaded, chosen, versions, products, notes);
    }, function (err) {
      if (gen === generation) status.textContent = notes.concat([fill(W.prepareLoadError, [err.message])]).join(" ");
    });
  }

  // show lists the cases of the loaded files that apply, in the library's
  // order, and their merged checklist.
  function show(loaded, chosen, versions, products, notes) {
    var applies = {}, list = [], seen = {};
    loaded.forEach(function (f) {
      f.cases.forEach(function (c) {
        if (seen[c.id]) return;
        seen[c.id] = true;
        var byPart = (c.parts || []).some(function (p) { return chosen[p]; }), byProduct = false, other = false;
        products.forEach(function (p) {
          var named = (c.affected || []).filter(function (a) { return a.product === p; });
          if (!named.length) return;
          if (named.some(function (a) { return matches(a, versions[p]); })) byProduct = true;
          else other = true;
        });
        if (!other && (byPart || byProduct)) {
          applies[c.id] = c;
          list.push(c);
        }
      });
    });
    list.sort(function (a, b) { return a.n - b.n; });
    allEl.hidden = true;
    result.hidden = false;
    casesEl.textContent = "";
    listEl.textContent = "";
    list.forEach(function (c) {
      var li = el("li");
      var a = el("a", { href: c.href, "data-case": c.id });
      a.appendChild(el("span", { "class": "id" }, c.id));
      a.appendChild(doc.createTextNode(" " + c.title));
      li.appendChild(a);
      casesEl.appendChild(li);
    });
    var count = list.length === 1 ? W.casesOne : fill(W.casesOther, [list.length]);
    status.textContent = notes.concat([list.length ? count : W.prepareEmpty]).join(" ");
    loaded.forEach(function (f) {
      if (!f.more) return;
      status.appendChild(doc.createTextNode(" "));
      status.appendChild(el("a", { href: f.more.topic }, f.more.label));
      status.appendChild(doc.createTextNode(": " + fill(newest, [f.cases.length, f.more.total])));
    });
    var ul = null, group = -1;
    merged(applies, loaded).forEach(function (l) {
      if (l.group !== group) {
        group = l.group;
        var h = titles && titles.content.querySelector('[data-group="' + groups[group] + '"]');
        if (h) listEl.appendChild(h.cloneNode(true));
        ul = el("ul", { "class": "checks" });
        listEl.appendChild(ul);
      }
      ul.appendChild(line(l));
    });
  }

  readURL();
  form.hidden = false;
  form.addEventListener("change", update);
  form.addEventListener("input", update);
  form.addEventListener("submit", function (e) { e.preventDefault(); update(); });
  root.addEventListener("popstate", function () { readURL(); update(); });
  update();
})(this);
