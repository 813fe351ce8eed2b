/*
 * incidentlib search: the query side of internal/search.
 *
 * Plain script: no modules, workers or WebAssembly, so that it runs from
 * file:// as well as over HTTP. It defines window.IncidentSearch and, when
 * loaded in a page, wires every form described below.
 *
 * DOM contract (templates follow this):
 *
 *   <form class="search" role="search"
 *         action="RELATIVE/PATH/TO/{lang}/search/"   where Enter goes without JS
 *         data-search="page" | "box"                 full search page, or header box
 *         data-search-root="RELATIVE/PATH/TO/search/"  the index folder, relative to this page
 *         data-site-root="RELATIVE/PATH/TO/"          optional; default: data-search-root without "search/"
 *         data-lang="en" | "ko"                       UI language and which title/excerpt to show
 *         data-offline="1">                           optional; offline bundle: links name index.html
 *     <input type="search" name="q" autocomplete="off">
 *   </form>
 *
 *   The search page (data-search="page") also has, inside the form or
 *   anywhere in the document:
 *     <p data-search-status aria-live="polite"></p>   counts, no-results message, suggestion
 *     <div data-search-facets></div>                  filled with one <fieldset> per facet, a folded
 *                                                     group whose legend is the button that opens it;
 *                                                     aria-busy="true" on a group while its counts load
 *     <ol data-search-results></ol>                   filled with one <li class="search-result"> per case
 *
 *   Every facet is a folded group. Before anything is typed or ticked an
 *   opened group shows counts over every case (from the small facet
 *   summary the page loads anyway); with a query, a closed group loads
 *   nothing, and opening one loads its facet's file and shows its counts
 *   among the results, which it keeps up to date while it stays open.
 *   While a query or a filter is active, the <main> holding the form (or
 *   <body>) has the class "search-active".
 *
 *   A list page whose static case cards the results replace marks its form
 *   with data-search-list: its empty state has no prompt, and its CSS hides
 *   the cards and the pager under main.search-active, so that without
 *   JavaScript the static list stays as it is.
 *
 *   The header box (data-search="box") gets an <ol class="search-suggest">
 *   inserted after its input, listing the first results as the user types.
 *
 * Page URL state: ?q=TEXT&components=ingress,cdn&years=2024 (facet URL names,
 * term ids comma-separated). It is read on load and kept up to date with
 * history.replaceState, so a result set can be bookmarked and shared.
 *
 * Keys: ArrowDown/ArrowUp move between the input and the result links, Enter
 * opens the focused result (or, in the box, goes to the search page),
 * Escape closes the box's list, or clears the query.
 *
 * Index files are fetched as JSON over HTTP. When the page is opened from
 * file:// (where fetch of local files is blocked) the same files are loaded
 * as <script src="X.js"> that store their value in window.__ilsearch["X"].
 * Result links end in index.html when data-offline="1" or the page is on
 * file://, because there is no server to resolve a directory.
 */
(function (root) {
  "use strict";

  // ---------------------------------------------------------------------------
  // Tokenizer. This is the twin of internal/search/tokenize.go and must give
  // the same terms; testdata/tokenize/vectors.json is run against both.

  var CL_SEP = 0, CL_SPACE = 1, CL_APOS = 2, CL_LETTER = 3, CL_DIGIT = 4, CL_HANGUL = 5;
  var RE_ND = /\p{Nd}/u, RE_LETTER = /[\p{L}\p{M}]/u, RE_MARK = /\p{M}/u, RE_SPACE = /\s/u;

  function classOf(cp) {
    if ((cp >= 0xac00 && cp <= 0xd7a3) || (cp >= 0x1100 && cp <= 0x11ff) || (cp >= 0x3130 && cp <= 0x318f) ||
        (cp >= 0xa960 && cp <= 0xa97f) || (cp >= 0xd7b0 && cp <= 0xd7ff)) {
      return CL_HANGUL;
    }
    var ch = String.fromCodePoint(cp);
    if (RE_ND.test(ch)) return CL_DIGIT;
    if (RE_LETTER.test(ch)) return CL_LETTER;
    if (cp === 0x27 || cp === 0x2019) return CL_APOS;
    // Go's unicode.IsSpace counts U+0085 and not U+FEFF; JavaScript's \s the reverse.
    if (cp === 0x85 || (RE_SPACE.test(ch) && cp !== 0xfeff)) return CL_SPACE;
    return CL_SEP;
  }

  function isMark(cp) { return RE_MARK.test(String.fromCodePoint(cp)); }

  // Lower-case one code point on its own, as Go's unicode.ToLower does: no
  // context (final sigma) and, where the full mapping gives two code points
  // (U+0130), the first.
  // Full-width forms of ASCII, which Korean input methods type, fold to
  // ASCII first (fold in tokenize.go).
  function lower(cp) {
    if (cp >= 0xff01 && cp <= 0xff5e) cp -= 0xfee0;
    return String.fromCodePoint(cp).toLowerCase().codePointAt(0);
  }

  var ENGLISH_STOP = {};
  ("a an and are as at be been but by for from has had have in into is it its of on or that " +
   "the their this to was were which with").split(" ").forEach(function (w) { ENGLISH_STOP[w] = true; });

  var KOREAN_SUFFIXES = (
    "은 는 이 가 을 를 의 에 에서 으로 로 와 과 도 만 들 께서 부터 까지 처럼 보다 에게 한테 " +
    "에는 에도 에서는 에서도 에서의 으로는 로는 으로도 로도 으로의 로의 과의 와의 과는 와는 " +
    "까지는 부터는 보다는 이나 이다 였다 이었다 이며 이고 이라는 라는 " +
    "들이 들을 들은 들의 들에 들도 들과 들로 들에게 들에서 " +
    "했다 했고 했으며 했던 했지만 하는 하고 하며 하기 하게 하면 하여 해서 한다 하다 " +
    "된다 됐다 됐고 됐으며 되는 되고 되어 되면 된 돼").split(" ");
  var KOREAN_SUFFIX_SET = {};
  KOREAN_SUFFIXES.forEach(function (s) { KOREAN_SUFFIX_SET[s] = true; });
  // Longest first; the sort is stable, like Go's SliceStable.
  KOREAN_SUFFIXES.sort(function (a, b) { return Array.from(b).length - Array.from(a).length; });

  function cps(s) { return Array.from(s); }

  function stemEnglish(w) {
    var rs = cps(w);
    var n = rs.length;
    if (n <= 3) return w;
    var has = function (suf) { return rs.join("").endsWith(suf); };
    var undouble = function () {
      var m = rs.length;
      if (m >= 2 && rs[m - 1] === rs[m - 2] && "lsz".indexOf(rs[m - 1]) < 0 && /^[A-Za-z]$/.test(rs[m - 1])) {
        rs = rs.slice(0, m - 1);
      }
    };
    if (n > 4 && (has("ies") || has("ied"))) {
      rs = rs.slice(0, n - 3).concat(["y"]);
    } else if (has("sses")) {
      rs = rs.slice(0, n - 2);
    } else if (has("s") && !has("ss") && !has("us") && !has("is")) {
      rs = rs.slice(0, n - 1);
    } else if (has("ing") && n - 3 >= 3) {
      rs = rs.slice(0, n - 3);
      undouble();
    } else if (has("ed") && n - 2 >= 3) {
      rs = rs.slice(0, n - 2);
      undouble();
    }
    if (rs.length > 3 && rs[rs.length - 1] === "e") rs = rs.slice(0, rs.length - 1);
    return rs.join("");
  }

  function alnumWord(cls, chars) {
    var raw = chars.join("");
    if (cls === CL_DIGIT) return { hangul: false, term: raw, parts: [], chain: [], alt: [], raw: raw };
    if (chars.length < 2 || ENGLISH_STOP[raw]) return { hangul: false, term: "", parts: [], chain: [], alt: [], raw: raw };
    return { hangul: false, term: stemEnglish(raw), parts: [], chain: [], alt: [], raw: raw };
  }

  // COMPOUND_MARK starts the terms of Korean compounds written with a space
  // (compoundMark in tokenize.go): a query finds them whole, never as a
  // prefix.
  var COMPOUND_MARK = "+";

  // Korean counters and units that make one term with the number before
  // them ("3월에" → "3월"); see counters in tokenize.go.
  var COUNTERS = {};
  ("년 월 일 시 분 초 시간 개월 주 주일 건 개 명 회 번 번째 차 배 대 곳 층 달 분기 가지 종 퍼센트 프로")
    .split(" ").forEach(function (c) { COUNTERS[c] = true; });

  // Words that English writes joined, split or hyphenated, abbreviations
  // of phrases, and synonyms; see phrases in tokenize.go.
  var PHRASES = [
    "crashloop: crash loop", "oom: out of memory", "failover: fail over", "backoff: back off",
    "healthcheck: health check", "timeout: time out", "rollout: roll out", "rollback: roll back",
    "deadlock: dead lock", "hotfix: hot fix",
    "k8s: kubernetes"
  ].map(function (l) {
    var at = l.indexOf(": ");
    return {
      term: l.slice(0, at),
      words: l.slice(at + 2).split(" ").map(function (w) { return ENGLISH_STOP[w] ? w : stemEnglish(w); })
    };
  });

  function koreanWord(chars) {
    var raw = chars.join("");
    if (KOREAN_SUFFIX_SET[raw]) {
      return { w: { hangul: true, term: "", parts: [], chain: [], alt: [], raw: raw }, stem: chars, stripped: false };
    }
    var stem = chars, stripped = false;
    for (var i = 0; i < KOREAN_SUFFIXES.length; i++) {
      var suf = KOREAN_SUFFIXES[i];
      if (raw.endsWith(suf)) {
        var n = cps(suf).length;
        if (chars.length - n >= 1) {
          stem = chars.slice(0, chars.length - n);
          stripped = true;
          break;
        }
      }
    }
    var w = { hangul: true, term: stem.join(""), parts: [], chain: [], alt: [], raw: raw };
    if (stripped && stem.length === 1) {
      w.alt = [raw];
    } else if (stem.length >= 3) {
      for (var k = 0; k + 1 < stem.length; k++) w.parts.push(stem[k] + stem[k + 1]);
      for (k = 0; stem.length >= 4 && k + 2 < stem.length; k++) w.chain.push(stem[k] + stem[k + 1] + stem[k + 2]);
      w.parts = w.parts.concat(w.chain);
    }
    w.ended = stripped;
    return { w: w, stem: stem, stripped: stripped };
  }

  // analyze splits text into words (see tokenize.go). Each word also carries
  // s and e, its UTF-16 offsets in text.normalize("NFC"), for highlighting.
  function analyze(text) {
    text = String(text || "").normalize("NFC");
    var rs = [], pos = [];
    for (var off = 0; off < text.length;) {
      var cp = text.codePointAt(off);
      rs.push(lower(cp));
      pos.push(off);
      off += cp > 0xffff ? 2 : 1;
    }
    pos.push(text.length);
    var out = [];
    var prevKo = null, spaceOnly = false;
    var i = 0;
    while (i < rs.length) {
      var c = classOf(rs[i]);
      if (c === CL_SEP || c === CL_SPACE || c === CL_APOS) {
        if (c !== CL_SPACE) spaceOnly = false;
        i++;
        continue;
      }
      var runs = [];
      while (i < rs.length) {
        var r = rs[i];
        c = classOf(r);
        if (c === CL_APOS) {
          if (runs.length > 0 && runs[runs.length - 1].cls === CL_LETTER && i + 1 < rs.length && classOf(rs[i + 1]) === CL_LETTER) {
            i++;
            continue;
          }
          break;
        }
        if (c === CL_SEP || c === CL_SPACE) break;
        if (c === CL_LETTER && runs.length > 0 && isMark(r)) c = runs[runs.length - 1].cls;
        if (runs.length === 0 || runs[runs.length - 1].cls !== c) runs.push({ cls: c, chars: [], s: pos[i], e: pos[i] });
        var last = runs[runs.length - 1];
        last.chars.push(String.fromCodePoint(r));
        last.e = pos[i + 1];
        i++;
      }
      for (var k = 0; k < runs.length; k++) {
        var run = runs[k];
        if (run.cls === CL_HANGUL) {
          var kw = koreanWord(run.chars);
          if (k === 0 && spaceOnly && prevKo !== null && kw.w.term !== "") {
            kw.w.compound = COMPOUND_MARK + prevKo.join("") + kw.w.term;
          }
          kw.w.s = run.s;
          kw.w.e = run.e;
          out.push(kw.w);
          prevKo = null;
          if (k === runs.length - 1 && !kw.stripped && kw.w.term !== "") prevKo = kw.stem;
          continue;
        }
        var j = k;
        while (j + 1 < runs.length && runs[j + 1].cls !== CL_HANGUL) j++;
        var w;
        if (j === k && run.cls === CL_DIGIT && k + 1 < runs.length) {
          // A number with its counter is one unit, found by the number too.
          var unit = koreanWord(runs[k + 1].chars);
          if (unit.w.term !== "" && COUNTERS[unit.w.term]) {
            var digits = run.chars.join("");
            out.push({ hangul: false, term: digits + unit.w.term, parts: [], chain: [], alt: [digits],
              raw: digits + unit.w.raw, s: run.s, e: runs[k + 1].e });
            k++;
            prevKo = null;
            continue;
          }
        }
        if (j === k) {
          w = alnumWord(run.cls, run.chars);
        } else {
          var joined = [], parts = [];
          for (var p = k; p <= j; p++) {
            joined = joined.concat(runs[p].chars);
            var pw = alnumWord(runs[p].cls, runs[p].chars);
            if (pw.term !== "") parts.push(pw.term);
          }
          w = { hangul: false, term: joined.join(""), parts: [], chain: [], alt: parts, raw: joined.join("") };
        }
        w.s = run.s;
        w.e = runs[j].e;
        out.push(w);
        k = j;
        prevKo = null;
      }
      spaceOnly = true;
    }
    return out;
  }

  function indexTerms(text) {
    var out = [];
    var state = PHRASES.map(function () { return 0; });
    analyze(text).forEach(function (w) {
      if (w.compound) out.push(w.compound);
      var key = w.term !== "" ? w.term : w.raw;
      PHRASES.forEach(function (p, i) {
        if (w.hangul) {
          state[i] = 0;
          return;
        }
        if (w.term !== "" && cps(w.term).length > cps(p.term).length && w.term.startsWith(p.term)) out.push(p.term);
        if (key === p.words[state[i]]) {
          state[i]++;
          if (state[i] === p.words.length) {
            out.push(p.term);
            state[i] = 0;
          }
        } else {
          state[i] = key === p.words[0] ? 1 : 0;
        }
      });
      if (w.term === "") return;
      out.push(w.term);
      out.push.apply(out, w.parts);
      out.push.apply(out, w.alt);
    });
    return out;
  }

  // query returns the groups a document should match (see Group in
  // tokenize.go). Each group also has raw, the word as typed, which the
  // vectors leave out.
  function query(text, prefix) {
    var ws = analyze(text);
    if (prefix && ws.length > 0) {
      var all = cps(String(text));
      if (all.length > 0 && classOf(all[all.length - 1].codePointAt(0)) < CL_LETTER) prefix = false;
    }
    var out = [], seen = {};
    ws.forEach(function (w, k) {
      var g = { any: [], all: [], prefix: "" };
      if (w.term !== "") {
        g.any.push(w.term);
        if (w.hangul) {
          g.any.push.apply(g.any, w.alt);
          if (cps(w.term).length >= 3) g.any.push(COMPOUND_MARK + w.term);
          g.all.push.apply(g.all, w.chain);
        }
      }
      if (prefix && k === ws.length - 1 && !(w.hangul && (w.term === "" || w.ended))) {
        var n = cps(w.raw).length;
        if (n >= 2 || (n === 1 && w.hangul)) g.prefix = w.raw;
      }
      var key = g.any.join(" ") + "|" + g.all.join(" ") + "|" + g.prefix;
      if ((g.any.length === 0 && g.prefix === "") || seen[key]) return;
      seen[key] = true;
      Object.defineProperty(g, "raw", { value: w.raw, enumerable: false });
      out.push(g);
    });
    // A longer query is cut (MaxQueryWords in tokenize.go); the cut list
    // says so in its truncated property, which the vectors leave out.
    var truncated = out.length > MAX_QUERY_WORDS;
    if (truncated) out = out.slice(0, MAX_QUERY_WORDS);
    Object.defineProperty(out, "truncated", { value: truncated, enumerable: false });
    return out;
  }

  var MAX_QUERY_WORDS = 20;

  // ---------------------------------------------------------------------------
  // Engine.

  // Compare by code point, the order Go's sort.Strings gives the build.
  function cmp(a, b) {
    var i = 0, j = 0;
    while (i < a.length && j < b.length) {
      var x = a.codePointAt(i), y = b.codePointAt(j);
      if (x !== y) return x < y ? -1 : 1;
      i += x > 0xffff ? 2 : 1;
      j += y > 0xffff ? 2 : 1;
    }
    if (i >= a.length && j >= b.length) return 0;
    return i >= a.length ? -1 : 1;
  }

  // Prefixes that would need more buckets than this are skipped until the
  // user types more: two letters of English can cover a large part of the
  // index.
  var MAX_PREFIX_BUCKETS = 3;
  var PREFIX_FACTOR = 0.8; // a completion ranks below the word itself

  function loadScript(url, name) {
    return new Promise(function (resolve, reject) {
      var s = document.createElement("script");
      s.src = url;
      s.async = true;
      s.onload = function () {
        var store = root.__ilsearch || {};
        var v = store[name];
        delete store[name];
        s.remove();
        if (v === undefined) reject(new Error("search index file " + url + " registered nothing"));
        else resolve(v);
      };
      s.onerror = function () {
        s.remove();
        reject(new Error("cannot load " + url));
      };
      document.head.appendChild(s);
    });
  }

  // loader returns the default way to read index file NAME under base.
  function loader(base, useScript) {
    return function (name) {
      if (useScript) return loadScript(base + name + ".js", name);
      return fetch(base + name + ".json").then(function (r) {
        if (!r.ok) throw new Error("cannot load " + base + name + ".json: " + r.status);
        return r.json();
      });
    };
  }

  // Engine reads an index through load(name) → Promise of its value, where
  // name is "manifest", "facets", or a path the manifest's layout gives,
  // such as "t/kub", "r/0" or "f/components".
  function Engine(load) {
    this.load = load;
    this.cache = {};
  }

  Engine.prototype.get = function (name) {
    var self = this;
    if (!this.cache[name]) {
      this.cache[name] = this.load(name).catch(function (err) {
        delete self.cache[name];
        throw err;
      });
    }
    return this.cache[name];
  };

  // The index format this engine reads (internal/search/layout.go): the
  // manifest's v, and the rule that names the files of groups and buckets.
  var FORMAT = 3, KEY_RULE = "dash-64w";

  // manifest resolves to the index's manifest, once it is known to be in a
  // format this engine reads. Every path but those of the manifest and the
  // facet summary comes from its layout.
  Engine.prototype.manifest = function () {
    return this.get("manifest").then(function (m) {
      if (m.v !== FORMAT || !m.layout || m.layout.key !== KEY_RULE) {
        throw new Error("search index format " + m.v + " is not format " + FORMAT + " with keys " + KEY_RULE);
      }
      return m;
    });
  };

  // filePath fills a template of the manifest's layout ("t/{key}") with value.
  function filePath(template, value) {
    return template.replace(/\{[a-z]+\}/, function () { return String(value); });
  }

  // fileKey names the file of a group or a bucket after its first boundary
  // (fileKey in layout.go, rule "dash-64w"): a-z and 0-9 as they are, any
  // other character as - and four hex digits (-- and six beyond U+FFFF),
  // "" as "-", a name Windows keeps for a device (con, prn, aux, nul,
  // com1-9, lpt1-9) with a _ after it; a key over 64 characters keeps 55
  // and ends in . and the FNV-1a hash of the boundary's UTF-8, in eight
  // hex digits.
  function fileKey(s) {
    var k = "";
    Array.from(s).forEach(function (ch) {
      var c = ch.codePointAt(0);
      if ((c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39)) k += ch;
      else if (c <= 0xffff) k += "-" + ("000" + c.toString(16)).slice(-4);
      else k += "--" + ("00000" + c.toString(16)).slice(-6);
    });
    if (k === "") return "-";
    if (/^(con|prn|aux|nul|com[1-9]|lpt[1-9])$/.test(k)) return k + "_";
    if (k.length > 64) {
      var h = 0x811c9dc5;
      new TextEncoder().encode(s).forEach(function (b) { h = Math.imul(h ^ b, 16777619) >>> 0; });
      k = k.slice(0, 55) + "." + ("0000000" + h.toString(16)).slice(-8);
    }
    return k;
  }

  // The manifest names the first boundary of every group of buckets; the
  // group file names the first boundary of each of its buckets, and a
  // bucket is known by its first boundary. A view {m, parts: {G:
  // boundaries}} holds the group files a query has loaded.

  // lastAtMost returns the last index of list whose entry sorts at or
  // before term, or -1.
  function lastAtMost(list, term) {
    var lo = 0, hi = list.length - 1;
    if (hi < 0 || cmp(list[0], term) > 0) return -1;
    while (lo < hi) {
      var mid = (lo + hi + 1) >> 1;
      if (cmp(list[mid], term) <= 0) lo = mid; else hi = mid - 1;
    }
    return lo;
  }

  function groupOf(m, term) { return lastAtMost(m.groups, term); }

  // groupsFor returns the groups whose files a query needs: those of its
  // terms, and for a prefix the next group too when the prefix may run on
  // into it.
  function groupsFor(m, terms, prefixes) {
    var need = {};
    terms.forEach(function (t) { var g = groupOf(m, t); if (g >= 0) need[g] = true; });
    prefixes.forEach(function (p) {
      var g = groupOf(m, p);
      if (g >= 0) need[g] = true;
      if (g + 1 < m.groups.length && m.groups[g + 1].startsWith(p)) need[g + 1] = true;
    });
    return Object.keys(need).map(Number);
  }

  // bucketOf returns the first boundary of the bucket that holds term, or
  // null when no bucket does or its group is not loaded.
  function bucketOf(v, term) {
    var g = groupOf(v.m, term);
    if (g < 0 || !v.parts[g]) return null;
    return v.parts[g][lastAtMost(v.parts[g], term)];
  }

  // prefixBuckets returns the buckets holding terms that start with p, in
  // the loaded groups.
  function prefixBuckets(v, p) {
    var g = groupOf(v.m, p);
    if (g < 0 || !v.parts[g]) return [];
    var j = lastAtMost(v.parts[g], p), out = [v.parts[g][j]];
    for (;;) {
      if (++j >= v.parts[g].length) {
        g++;
        j = 0;
        if (!v.parts[g]) break;
      }
      var b = v.parts[g][j];
      if (!b.startsWith(p)) break;
      out.push(b);
    }
    return out;
  }

  // view loads the group files of terms and prefixes.
  Engine.prototype.view = function (m, terms, prefixes) {
    var self = this, gs = groupsFor(m, terms, prefixes);
    return Promise.all(gs.map(function (g) {
      return self.get(filePath(m.layout.groups, fileKey(m.groups[g])));
    })).then(function (parts) {
      var v = { m: m, parts: {} };
      gs.forEach(function (g, k) { v.parts[g] = parts[k]; });
      return v;
    });
  };

  // bucket resolves to the entries of the bucket whose first boundary is
  // first, as a Map term → entry.
  Engine.prototype.bucket = function (m, first) {
    var self = this;
    var key = "bucket:" + first, name = filePath(m.layout.buckets, fileKey(first));
    if (!this.cache[key]) {
      this.cache[key] = this.get(name).then(function (entries) {
        var map = new Map();
        entries.forEach(function (e) { map.set(e[0], e[1]); });
        delete self.cache[name]; // keep only the map
        return map;
      });
    }
    return this.cache[key];
  };

  // eachPosting calls f(doc, score) for each posting of a term, stored as
  // [weights, codes] (see internal/search/postings.go): each code is, in
  // base 32 with the lowest digit first, (doc - previous doc - 1) times the
  // number of weights plus the index of the document's weight. The score
  // is the term's idf among the manifest's docs times the weight over the
  // manifest's scale (idf and termWeight in internal/search/analyse.go).
  function eachPosting(m, entry, f) {
    var table = entry[0], codes = entry[1], n = table.length;
    var df = 0;
    for (var c = 0; c < codes.length; c++) if (POSTING_DIGIT[codes.charCodeAt(c)] < 32) df++;
    var idf = Math.log(1 + (m.docs - df + 0.5) / (df + 0.5));
    var v = 0, mul = 1, d = -1;
    for (var i = 0; i < codes.length; i++) {
      var k = POSTING_DIGIT[codes.charCodeAt(i)];
      if (k >= 32) {
        v += (k - 32) * mul;
        mul *= 32;
        continue;
      }
      v += k * mul;
      var gap = Math.floor(v / n);
      d += gap + 1;
      f(d, idf * table[v - gap * n] / m.scale);
      v = 0;
      mul = 1;
    }
  }

  var POSTING_DIGIT = new Int8Array(128);
  "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".split("").forEach(function (c, i) {
    POSTING_DIGIT[c.charCodeAt(0)] = i;
  });

  // postings decodes a term's postings into a Map doc → score.
  function postings(m, entry) {
    var out = new Map();
    eachPosting(m, entry, function (d, s) { out.set(d, s); });
    return out;
  }

  // facets resolves to {facet: terms} for the named facets (all when names
  // is not given), each term with its documents in docs.
  Engine.prototype.facets = function (names) {
    var self = this;
    return this.manifest().then(function (m) {
      names = (names || m.facets).filter(function (f) { return m.facets.indexOf(f) >= 0; });
      return Promise.all(names.map(function (f) {
        var key = "facet:" + f;
        if (!self.cache[key]) {
          var name = filePath(m.layout.facets, f);
          self.cache[key] = self.get(name).then(function (file) {
            file.terms.forEach(function (t) {
              var abs = new Array(t.d.length), d = 0;
              for (var i = 0; i < t.d.length; i++) { d += t.d[i]; abs[i] = d; }
              t.docs = abs;
            });
            delete self.cache[name];
            return file.terms;
          });
        }
        return self.cache[key];
      })).then(function (files) {
        var out = {};
        names.forEach(function (f, k) { out[f] = files[k]; });
        return out;
      });
    });
  };

  // summary resolves to the facet counts over every case, in the shape of
  // a result's facets, from the small file the page reads before anything
  // is typed. That file has the first FACET_SHOWN terms of each facet; the
  // facets named in full ({facet: true}) come whole from their own files.
  // Each facet's list has the number of its terms in total.
  Engine.prototype.summary = function (filters, full) {
    filters = filters || {};
    full = full || {};
    var self = this;
    return this.get("facets").then(function (list) {
      var names = list.map(function (f) { return f.facet; }).filter(function (f) { return full[f]; });
      return (names.length ? self.facets(names) : Promise.resolve({})).then(function (whole) {
        var out = {};
        list.forEach(function (f) {
          var terms = whole[f.facet] || f.terms;
          out[f.facet] = terms.map(function (t) {
            return { id: t.id, label: t.l, count: t.n, selected: (filters[f.facet] || []).indexOf(t.id) >= 0 };
          });
          out[f.facet].total = f.all;
        });
        return out;
      });
    });
  };

  // records resolves to the display records of docs, one file per case
  // holding both languages (the page picks its own).
  Engine.prototype.records = function (docs) {
    var self = this;
    return this.manifest().then(function (m) {
      return Promise.all(docs.map(function (d) { return self.get(filePath(m.layout.records, d)); }));
    });
  };

  // counts resolves to the facet counts of a result of search (see
  // applyFilters) for the facets named (every facet when names is not
  // given). It loads the file of each facet named and of each facet the
  // result is filtered by (those are loaded already), so the page asks only
  // for the facets the reader has opened.
  Engine.prototype.counts = function (res, names) {
    var m = res.matched, self = this;
    return this.manifest().then(function (man) {
      var want = names || man.facets, load = want.slice();
      Object.keys(m.filters).forEach(function (f) {
        if (m.filters[f] && m.filters[f].length && load.indexOf(f) < 0) load.push(f);
      });
      return self.facets(load).then(function (facetData) {
        var all = applyFilters(m.docs, facetData, m.filters, m.n).counts, out = {};
        want.forEach(function (f) { if (all[f]) out[f] = all[f]; });
        return out;
      });
    });
  };

  function hasFilters(filters) {
    return Object.keys(filters || {}).some(function (f) { return filters[f] && filters[f].length > 0; });
  }

  function editDistance(a, b, max) {
    a = cps(a); b = cps(b);
    if (Math.abs(a.length - b.length) > max) return max + 1;
    var prev = [], cur;
    for (var j = 0; j <= b.length; j++) prev[j] = j;
    for (var i = 1; i <= a.length; i++) {
      cur = [i];
      for (var k = 1; k <= b.length; k++) {
        cur[k] = Math.min(prev[k] + 1, cur[k - 1] + 1, prev[k - 1] + (a[i - 1] === b[k - 1] ? 0 : 1));
      }
      prev = cur;
    }
    return prev[b.length];
  }

  // search runs a query. opts: prefix (default true), filters ({facet: [ids]}),
  // facets (compute facet counts), all (an empty query matches every case,
  // which gives the facet counts of the whole library), offset, limit. It
  // resolves to
  //   {groups, total, hits: [{doc, score, record}], partial, facets, suggestion}
  // where partial means no case matched every word and hits match some, and
  // suggestion is {filters: count without filters} or {query: text}.
  Engine.prototype.search = function (text, opts) {
    opts = opts || {};
    var self = this;
    var groups = query(text, opts.prefix !== false);
    var filters = opts.filters || {};
    var filtered = hasFilters(filters);
    var limit = opts.limit != null ? opts.limit : 20, offset = opts.offset || 0;
    var lang = opts.lang === "ko" ? "ko" : "en";
    var terms = [], prefixes = [];
    groups.forEach(function (g) {
      terms.push.apply(terms, g.any.concat(g.all));
      if (g.prefix) prefixes.push(g.prefix);
    });
    return this.manifest().then(function (m) {
      return self.view(m, terms, prefixes).then(function (v) {
        // Which buckets does each group need?
        var need = new Map();
        var plans = groups.map(function (g) {
          var plan = { g: g, prefixBuckets: [] };
          g.any.concat(g.all).forEach(function (t) {
            var b = bucketOf(v, t);
            if (b !== null) need.set(b, true);
          });
          if (g.prefix) {
            var bs = prefixBuckets(v, g.prefix);
            if (bs.length <= MAX_PREFIX_BUCKETS) {
              plan.prefixBuckets = bs;
              bs.forEach(function (b) { need.set(b, true); });
            }
          }
          return plan;
        });
        var ids = Array.from(need.keys());
        var filterNames = Object.keys(filters).filter(function (f) { return filters[f] && filters[f].length > 0; });
        return Promise.all([
          Promise.all(ids.map(function (b) { return self.bucket(m, b); })),
          filtered ? self.facets(filterNames) : null
        ]).then(function (loaded) {
          var buckets = new Map();
          ids.forEach(function (b, k) { buckets.set(b, loaded[0][k]); });
          var lookup = function (t) {
            var b = buckets.get(bucketOf(v, t));
            var entry = b && b.get(t);
            return entry ? postings(m, entry) : null;
          };
          var groupScores = plans.map(function (plan) { return scoreGroup(m, plan, lookup, buckets); });
          var res = combine(groupScores, m.docs, groups.length === 0 && (filtered || opts.all));
          var unfiltered = res.docs.length;
          var matched = { docs: res.docs, filters: filters, n: m.docs };
          if (loaded[1]) res.docs = applyFilters(res.docs, loaded[1], filters, m.docs).docs;
          var out = {
            groups: groups, total: res.docs.length, partial: res.partial, facets: null,
            hits: [], suggestion: null, truncated: groups.truncated
          };
          Object.defineProperty(out, "matched", { value: matched, enumerable: false });
          var suggestion = null;
          if (out.total === 0 && groups.length > 0) {
            if (filtered && unfiltered > 0) out.suggestion = { filters: unfiltered };
            else suggestion = self.suggest(m, text, groups, groupScores);
          }
          var page = res.docs.slice(offset, offset + limit);
          return Promise.all([
            self.records(page.map(function (h) { return h.doc; })),
            opts.facets ? self.counts(out) : null,
            suggestion
          ]).then(function (got) {
            out.hits = page.map(function (h, k) { return { doc: h.doc, score: h.score, record: got[0][k] }; });
            out.facets = got[1];
            if (got[2]) out.suggestion = { query: got[2] };
            return out;
          });
        });
      });
    });
  };

  // scoreGroup returns a Map doc → score for one query group: the best of an
  // exact term, all of its bigrams (averaged, so they do not outweigh a
  // whole-word match) and prefix completions.
  function scoreGroup(m, plan, lookup, buckets) {
    var g = plan.g;
    var best = new Map();
    var put = function (d, s) { if (!(best.get(d) >= s)) best.set(d, s); };
    g.any.forEach(function (t) {
      var p = lookup(t);
      if (p) p.forEach(function (s, d) { put(d, s); });
    });
    if (g.all.length > 0) {
      var lists = g.all.map(lookup);
      if (lists.every(Boolean)) {
        lists.sort(function (a, b) { return a.size - b.size; });
        lists[0].forEach(function (s, d) {
          var sum = s;
          for (var i = 1; i < lists.length; i++) {
            var v = lists[i].get(d);
            if (v === undefined) return;
            sum += v;
          }
          put(d, sum / lists.length);
        });
      }
    }
    plan.prefixBuckets.forEach(function (b) {
      buckets.get(b).forEach(function (entry, t) {
        if (!t.startsWith(g.prefix)) return;
        var f = t === g.prefix ? 1 : PREFIX_FACTOR;
        eachPosting(m, entry, function (d, s) { put(d, s * f); });
      });
    });
    return best;
  }

  // combine intersects the groups (every word must match); when that leaves
  // nothing it falls back to documents matching any word, those matching
  // more words first. Ties go to the lower document number: the newer case.
  function combine(groupScores, n, allDocs) {
    if (groupScores.length === 0) {
      var docs = [];
      if (allDocs) for (var d = 0; d < n; d++) docs.push({ doc: d, score: 0 });
      return { docs: docs, partial: false };
    }
    var order = groupScores.slice().sort(function (a, b) { return a.size - b.size; });
    var hits = [];
    order[0].forEach(function (s, d) {
      var sum = s;
      for (var i = 1; i < order.length; i++) {
        var v = order[i].get(d);
        if (v === undefined) return;
        sum += v;
      }
      hits.push({ doc: d, score: sum, matched: order.length });
    });
    var partial = false;
    if (hits.length === 0 && groupScores.length > 1) {
      partial = true;
      var acc = new Map();
      groupScores.forEach(function (gs) {
        gs.forEach(function (s, d) {
          var h = acc.get(d);
          if (!h) acc.set(d, h = { doc: d, score: 0, matched: 0 });
          h.score += s;
          h.matched++;
        });
      });
      acc.forEach(function (h) { hits.push(h); });
    }
    hits.sort(function (a, b) {
      return (b.matched - a.matched) || (b.score - a.score) || (a.doc - b.doc);
    });
    return { docs: hits, partial: partial };
  }

  // applyFilters keeps the hits that pass every facet filter (values of one
  // facet are alternatives) and counts, for each facet term, the hits that
  // would pass if that facet's own filter were left out, so that choosing a
  // second value of a facet shows what it would add.
  function applyFilters(hits, facetData, filters, n) {
    var names = Object.keys(facetData);
    var fails = new Uint8Array(n), failedFacet = new Int16Array(n).fill(-1);
    var inHits = new Uint8Array(n);
    hits.forEach(function (h) { inHits[h.doc] = 1; });
    names.forEach(function (f, fi) {
      var want = filters[f];
      if (!want || want.length === 0) return;
      var ok = new Uint8Array(n);
      facetData[f].forEach(function (t) {
        if (want.indexOf(t.id) >= 0) t.docs.forEach(function (d) { ok[d] = 1; });
      });
      for (var d = 0; d < n; d++) {
        if (inHits[d] && !ok[d]) { fails[d]++; failedFacet[d] = fi; }
      }
    });
    var counts = {};
    names.forEach(function (f, fi) {
      counts[f] = facetData[f].map(function (t) {
        var c = 0;
        t.docs.forEach(function (d) {
          if (inHits[d] && (fails[d] === 0 || (fails[d] === 1 && failedFacet[d] === fi))) c++;
        });
        return { id: t.id, label: t.l, count: c, selected: (filters[f] || []).indexOf(t.id) >= 0 };
      });
    });
    return { docs: hits.filter(function (h) { return fails[h.doc] === 0; }), counts: counts };
  }

  // suggestKey says which list of suggestions, s/K, a word is in (see
  // suggestKey in engine.go).
  function suggestKey(t) {
    var c = t.codePointAt(0);
    if (c >= 0x61 && c <= 0x7a) return t[0];
    if (c >= 0xac00 && c <= 0xd7a3) return "h" + Math.floor((c - 0xac00) / 588);
    return "-";
  }

  // suggest resolves to the query with its first word that matched nothing
  // replaced by the closest word of the whole index that starts with the
  // same character (edit distance 1, or 2 for words of more than five
  // characters; the most frequent, then the first in order, wins), or null.
  // It reads the index's list of words for that character, s/C.
  Engine.prototype.suggest = function (m, text, groups, groupScores) {
    for (var i = 0; i < groups.length; i++) {
      var g = groups[i];
      if (groupScores[i].size > 0 || g.any.length === 0) continue;
      var t = g.any[0];
      return this.get(filePath(m.layout.suggestions, suggestKey(t))).then(function (words) {
        var max = cps(t).length > 5 ? 2 : 1;
        var best = null, bestD = max + 1, bestN = 0;
        words.forEach(function (w) {
          var dist = editDistance(t, w[0], max);
          if (dist <= max && (dist < bestD || (dist === bestD && w[1] > bestN))) {
            best = w[0]; bestD = dist; bestN = w[1];
          }
        });
        if (!best) return null;
        var lowerText = String(text).normalize("NFC").toLowerCase();
        var at = lowerText.indexOf(g.raw);
        if (at < 0) return best;
        return (lowerText.slice(0, at) + best + lowerText.slice(at + g.raw.length)).trim();
      });
    }
    return Promise.resolve(null);
  };

  // highlightRanges returns [start, end) UTF-16 ranges of text.normalize("NFC")
  // that match the query groups. Only whole matches are marked: a word of
  // the query (not the bigrams that found it), a Korean word inside a longer
  // one only from its start or when it has three or more syllables ("로드"
  // is not marked inside "워크로드"), and a compound typed without its space
  // on both words of the text.
  function highlightRanges(text, groups) {
    var terms = {}, prefixes = [];
    groups.forEach(function (g) {
      g.any.forEach(function (t) { terms[t] = true; });
      if (g.prefix) prefixes.push(g.prefix);
    });
    var ko = Object.keys(terms).filter(function (t) { return /^[\uac00-\ud7a3]+$/.test(t); });
    var ranges = [], prev = null;
    analyze(text).forEach(function (w) {
      var last = prev;
      prev = w;
      if (!w.hangul) {
        var hit = (w.term && terms[w.term]) || w.alt.some(function (a) { return terms[a]; }) ||
          prefixes.some(function (p) { return w.raw.startsWith(p); });
        // A number with its counter is marked without the particle after it.
        if (hit) ranges.push([w.s, /[\uac00-\ud7a3]$/.test(w.term) ? w.s + w.term.length : w.e]);
        return;
      }
      // Hangul is in the BMP: offsets inside the word are code units.
      if (w.compound && terms[w.compound] && last) {
        ranges.push([last.s, last.s + last.term.length], [w.s, w.s + w.term.length]);
      }
      ko.forEach(function (t) {
        var n = t.length;
        if (n === 1) {
          if (w.term === t || w.alt.indexOf(t) >= 0) ranges.push([w.s, w.s + 1]);
          return;
        }
        for (var at = w.raw.indexOf(t); at >= 0; at = w.raw.indexOf(t, at + 1)) {
          if (at === 0 || n >= 3) ranges.push([w.s + at, w.s + at + n]);
        }
      });
      prefixes.forEach(function (p) { if (w.raw.startsWith(p)) ranges.push([w.s, w.s + p.length]); });
    });
    ranges.sort(function (a, b) { return a[0] - b[0] || a[1] - b[1]; });
    var merged = [];
    ranges.forEach(function (r) {
      var last = merged[merged.length - 1];
      if (last && r[0] <= last[1]) last[1] = Math.max(last[1], r[1]);
      else merged.push([r[0], r[1]]);
    });
    return merged;
  }


  // ---------------------------------------------------------------------------
  // User interface. Everything below needs a DOM; the engine above does not.

  var PAGE_SIZE = 20, BOX_SIZE = 6, FACET_SHOWN = 8, DEBOUNCE_MS = 100, EXCERPT_SHOWN = 160;
  // A search typed within this many milliseconds of the previous one
  // replaces its history entry instead of adding one, so that typing a word
  // is one entry and Back returns to the query before it.
  var TYPING_MS = 1500;
  // How long the results of a query being typed stay on screen before the
  // rest of their page is fetched: a query typed on within that time never
  // loads it.
  var REST_DELAY_MS = 400;
  // How many results a query being typed shows at first; the rest of the
  // page follows after REST_DELAY_MS.
  var FIRST_SHOWN = 8;
  // The width under which the results come before the filters, which fold
  // away (as the 40rem breakpoint of site.css).
  var NARROW = "(max-width: 40rem)";

  // tooShort reports a query of one Latin letter, which the page answers
  // with a prompt instead of a search. One Hangul syllable is a word of
  // its own often enough (훅, 큐, 락, 키) to be searched.
  function tooShort(q) {
    var c = cps(q);
    if (c.length !== 1) return false;
    return classOf(c[0].codePointAt(0)) === CL_LETTER;
  }

  // WORDS are the search page's words in both languages: the "js." keys of
  // the string catalogue, templates/strings.json, without their prefix. The
  // site writes them in over the marker below when it builds its assets
  // (internal/site, loadAssets); run from the source folder (the tests), the
  // script reads the catalogue itself.
  var WORDS = /*catalogue*/null;
  if (!WORDS && typeof require === "function") WORDS = wordsOf(require("../../templates/strings.json"));

  // wordsOf picks the "js." keys out of the catalogue, by language.
  function wordsOf(catalogue) {
    var out = { en: {}, ko: {} };
    Object.keys(catalogue).forEach(function (k) {
      if (k.indexOf("js.") === 0) Object.keys(out).forEach(function (lang) { out[lang][k.slice(3)] = catalogue[k][lang]; });
    });
    return out;
  }

  // fill puts args in for the catalogue's %[1]s, %[2]s, … as Go's fmt does.
  function fill(s, args) {
    return s.replace(/%\[(\d)\]s/g, function (_, i) { return String(args[i - 1]); });
  }

  // strings makes one language's table from its words: the plain ones as
  // they are, and a function for each that takes numbers or the query.
  function strings(w) {
    var t = {};
    Object.keys(w).forEach(function (k) { t[k] = w[k]; });
    t.cases = function (n) { return n === 1 ? w.casesOne : fill(w.casesOther, [n]); };
    t.range = function (from, to, total) { return fill(w.range, [from, to, total]); };
    t.found = function (n, q) { return q ? fill(w.found, [n, q, t.cases(n)]) : t.cases(n); };
    t.none = function (q) { return q ? fill(w.none, [q]) : w.noneFilters; };
    t.dropFilters = function (n) { return fill(w.dropFilters, [t.cases(n)]); };
    t.showAll = function (n) { return fill(w.showAll, [n]); };
    t.seeAll = function (q) { return fill(w.seeAll, [q]); };
    t.inResults = function (n) { return fill(n === 1 ? w.inResultsOne : w.inResultsOther, [n]); };
    t.group = function (name, n) { return n ? fill(w.group, [name, n]) : name; };
    // A date, whole or partial (2019-04, 2019), as the pages write it.
    t.date = function (iso) {
      if (!iso) return w.dateUnknown;
      var p = iso.split("-"), month = p.length > 1 ? w.months.split(",")[Number(p[1]) - 1] : "";
      return fill([w.dateYear, w.dateMonth, w.dateDay][p.length - 1] || iso, [p[0], month, Number(p[2])]);
    };
    return t;
  }

  var STRINGS = { en: strings(WORDS.en), ko: strings(WORDS.ko) };

  function el(tag, attrs, children) {
    var e = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) {
      if (k === "text") e.textContent = attrs[k];
      else if (k === "class") e.className = attrs[k];
      else e.setAttribute(k, attrs[k]);
    });
    (children || []).forEach(function (c) { if (c != null) e.append(c); });
    return e;
  }

  // passage returns about n characters of text around its first match of
  // the query, cut at spaces, with an ellipsis where text was left out; the
  // start of text when nothing in it matches.
  function passage(text, groups, n) {
    text = String(text || "").normalize("NFC");
    var chars = cps(text);
    if (chars.length <= n) return text;
    var ranges = highlightRanges(text, groups);
    // Code units to code points: Hangul and Latin are in the BMP, so this
    // only matters for rare characters.
    var at = ranges.length ? cps(text.slice(0, ranges[0][0])).length : 0;
    var start = Math.max(0, Math.min(at - Math.floor(n / 3), chars.length - n));
    if (start > 0) {
      var sp = chars.indexOf(" ", start);
      while (sp >= 0 && sp < at && !wordStart(chars, sp + 1)) sp = chars.indexOf(" ", sp + 1);
      if (sp >= 0 && sp < at) start = sp + 1;
    }
    var end = Math.min(chars.length, start + n);
    if (end < chars.length) {
      var back = chars.lastIndexOf(" ", end);
      if (back > Math.max(start, at)) end = back;
    }
    var out = chars.slice(start, end).join("").replace(/[\s,.;:…]+$/, "");
    return (start > 0 ? "\u2026" : "") + out + (end < chars.length ? "\u2026" : "");
  }

  // wordStart reports whether a passage may start at chars[i], just after a
  // space. A Hangul word after a Latin word, a number or a closing mark may
  // be a particle written apart from it ("HubSpot 의", which check warns
  // about), and a passage that starts there starts with a stray particle.
  function wordStart(chars, i) {
    return !(/[A-Za-z0-9)\]}"'`\u2019\u201d%]/.test(chars[i - 2] || "") && /[\uac00-\ud7a3]/.test(chars[i] || ""));
  }

  // highlighted returns text as DOM nodes with the query's matches in <mark>.
  // Data only ever goes through text nodes, never through markup.
  function highlighted(text, groups) {
    text = String(text || "").normalize("NFC");
    var frag = document.createDocumentFragment(), at = 0;
    highlightRanges(text, groups).forEach(function (r) {
      if (r[0] > at) frag.append(text.slice(at, r[0]));
      frag.append(el("mark", { text: text.slice(r[0], r[1]) }));
      at = r[1];
    });
    if (at < text.length) frag.append(text.slice(at));
    return frag;
  }

  var engines = {};

  // Setup holds what both controllers read from the form's data attributes.
  function Setup(form) {
    var fileMode = root.location && root.location.protocol === "file:";
    this.form = form;
    this.lang = form.getAttribute("data-lang") === "ko" ? "ko" : "en";
    this.li = this.lang === "ko" ? 1 : 0;
    this.t = STRINGS[this.lang];
    this.input = form.querySelector('input[name="q"]');
    // A folder link in the offline bundle may come out as ".../index.html";
    // the index files sit beside it, so the name is dropped.
    var base = (form.getAttribute("data-search-root") || "search/").replace(/index\.html$/, "");
    this.siteRoot = form.getAttribute("data-site-root") || (/(^|\/)search\/$/.test(base) ? base.slice(0, -7) : base + "../");
    this.offline = form.getAttribute("data-offline") === "1" || fileMode;
    var abs = new URL(base, document.baseURI).href;
    this.engine = engines[abs] || (engines[abs] = new Engine(loader(base, fileMode)));
    var action = form.getAttribute("action") || "";
    if (this.offline && action && /\/$/.test(action)) form.setAttribute("action", action + "index.html");
  }

  // filters resolves to the search filters in the order the page lists
  // them, [{name, l: [English, Korean], newest}], as the index's manifest names them
  // (the facet table of package cases); to none when it cannot be read,
  // which the search that follows reports.
  Setup.prototype.filters = function () {
    if (!this.filterList) {
      this.filterList = this.engine.manifest().then(function (m) { return m.filters || []; }, function () { return []; });
    }
    return this.filterList;
  };

  // facetOrder, newestFirst (a facet whose terms are listed by id, newest
  // first) and facetName read the filters once they are known (every
  // search waits for them).
  Setup.prototype.facetOrder = function () { return (this.known || []).map(function (f) { return f.name; }); };
  Setup.prototype.newestFirst = function (name) {
    return (this.known || []).some(function (x) { return x.name === name && x.newest; });
  };
  Setup.prototype.facetName = function (name) {
    var f = (this.known || []).find(function (x) { return x.name === name; });
    return f ? f.l[this.li] || f.l[1 - this.li] : name;
  };

  Setup.prototype.href = function (rec) {
    var u = this.siteRoot + rec.u[this.li];
    return this.offline && /\/$/.test(u) ? u + "index.html" : u;
  };

  // resultItem renders one case: title (in the page language, or the other
  // one marked with its lang), id, organisation, date and excerpt.
  Setup.prototype.resultItem = function (rec, groups, withExcerpt) {
    var li = this.li, other = 1 - li;
    var pick = function (pair) {
      return pair[li] ? { text: pair[li], lang: null } : { text: pair[other], lang: other ? "ko" : "en" };
    };
    var title = pick(rec.t), excerpt = pick(rec.x), org = pick(rec.o);
    var titleEl = el("span", { class: "search-result-title" }, [highlighted(title.text, groups)]);
    if (title.lang) titleEl.setAttribute("lang", title.lang);
    var link = el("a", { href: this.href(rec), class: "search-result-link" }, [
      el("span", { class: "search-result-id", text: rec.id }), " ", titleEl
    ]);
    var meta = el("p", { class: "search-result-meta" }, [
      org.text ? el("span", org.lang ? { lang: org.lang, text: org.text } : { text: org.text }) : null,
      org.text ? " \u00b7 " : null,
      // A case dated by the post or talk that told it says so (rec.p); a
      // case whose source gives no date says only that (rec.d is empty).
      rec.p && rec.d ? this.t.published + " " : null,
      rec.d ? el("time", { datetime: rec.d, text: this.t.date(rec.d) }) : this.t.date(rec.d)
    ]);
    var children = [link, meta];
    if (withExcerpt && excerpt.text) {
      var x = el("p", { class: "search-result-excerpt" }, [highlighted(passage(excerpt.text, groups, EXCERPT_SHOWN), groups)]);
      if (excerpt.lang) x.setAttribute("lang", excerpt.lang);
      children.push(x);
    }
    return el("li", { class: "search-result" }, children);
  };

  // moveFocus handles ArrowUp/ArrowDown between the input and a list of links.
  function moveFocus(ev, input, list) {
    var links = Array.prototype.slice.call(list.querySelectorAll("a"));
    if (links.length === 0) return false;
    var i = links.indexOf(document.activeElement);
    if (ev.key === "ArrowDown") {
      (links[i + 1] || links[links.length - 1]).focus();
    } else if (ev.key === "ArrowUp") {
      if (i <= 0) input.focus(); else links[i - 1].focus();
    } else {
      return false;
    }
    ev.preventDefault();
    return true;
  }

  function debounce(fn) {
    var timer = null;
    return function () {
      clearTimeout(timer);
      timer = setTimeout(fn, DEBOUNCE_MS);
    };
  }

  // PageController runs the search page.
  function PageController(form) {
    var s = this.s = new Setup(form);
    var find = function (sel) { return form.querySelector(sel) || document.querySelector(sel); };
    this.status = find("[data-search-status]");
    this.results = find("[data-search-results]");
    this.facetsEl = find("[data-search-facets]");
    // On a phone the CSS folds the filters away behind this button.
    var fold = form.querySelector("[data-search-fold]");
    if (fold) {
      fold.hidden = false;
      fold.addEventListener("click", function () {
        fold.setAttribute("aria-expanded", String(form.classList.toggle("facets-open")));
      });
    }
    // On a list page the results stand in for the static cards while a
    // query or filter is active; CSS hides the cards by this class.
    this.listMode = form.hasAttribute("data-search-list");
    this.scope = form.closest("main") || document.body;
    this.filters = {};
    this.expanded = {};
    // Each facet is a folded group. opened names the groups the reader has
    // opened; counts holds what the groups show: scope "library" (counts
    // over every case, from the idle summary) or "results" (counts among
    // the current results, fetched per opened group only), the terms by
    // facet where known, and the facets whose counts are on their way.
    this.opened = {};
    this.counts = { scope: "library", facets: [], terms: {}, busy: {} };
    this.shown = PAGE_SIZE;
    this.seq = 0;
    this.more = el("button", { type: "button", class: "search-more", text: s.t.more, hidden: "" });
    this.results.after(this.more);
    // The search box says how to reach the results from the keyboard, and
    // the page says where the focus went when it does.
    this.hint = el("span", { class: "vh", id: (s.input.id || "q") + "-hint", text: s.t.keyHint });
    this.said = el("span", { class: "vh", "aria-live": "polite" });
    s.input.after(this.hint, this.said);
    s.input.setAttribute("aria-describedby", this.hint.id);
    this.lastPush = 0;
    var ready = this.readURL();
    var self = this;
    root.addEventListener("popstate", function () {
      self.filters = {};
      self.readURL().then(function () {
        self.shown = PAGE_SIZE;
        self.run(false);
      });
    });
    this.layout();
    if (root.matchMedia) {
      var mq = root.matchMedia(NARROW);
      if (mq.addEventListener) mq.addEventListener("change", function () { self.layout(); });
    }
    var later = debounce(function () { self.shown = PAGE_SIZE; self.run("typed"); });
    s.input.addEventListener("input", later);
    form.addEventListener("submit", function (ev) {
      ev.preventDefault();
      self.shown = PAGE_SIZE;
      self.run(true);
    });
    s.input.addEventListener("keydown", function (ev) {
      if (ev.key === "Escape" && s.input.value) {
        ev.preventDefault();
        s.input.value = "";
        self.run(true);
      } else if (ev.key === "ArrowDown") {
        if (moveFocus(ev, s.input, self.results)) {
          self.said.textContent = s.t.inResults(self.results.querySelectorAll("a").length);
        }
      }
    });
    this.results.addEventListener("keydown", function (ev) {
      if (ev.key === "Escape") {
        ev.preventDefault();
        s.input.focus();
      } else {
        moveFocus(ev, s.input, self.results);
      }
    });
    this.more.addEventListener("click", function () {
      self.shown += PAGE_SIZE;
      self.run(false);
    });
    if (this.facetsEl) {
      this.facetsEl.addEventListener("change", function (ev) {
        var box = ev.target;
        if (!box.matches('input[type="checkbox"]')) return;
        var f = box.name, list = (self.filters[f] || []).filter(function (v) { return v !== box.value; });
        if (box.checked) list.push(box.value);
        if (list.length) self.filters[f] = list; else delete self.filters[f];
        self.shown = PAGE_SIZE;
        self.run(true);
      });
      this.facetsEl.addEventListener("click", function (ev) {
        var b = ev.target.closest("button");
        if (!b) return;
        if (b.hasAttribute("data-facet-toggle")) {
          self.toggleGroup(b.getAttribute("data-facet-toggle"));
        } else if (b.hasAttribute("data-facet-more")) {
          var f = b.getAttribute("data-facet-more");
          self.expanded[f] = !self.expanded[f];
          if (self.counts.scope === "library" && self.expanded[f]) {
            // The idle summary has the first terms only; showing all needs
            // the facet's own file.
            var my = self.seq;
            s.engine.summary(self.filters, self.expanded).then(function (facets) {
              if (my !== self.seq) return;
              self.counts.terms = facets;
              self.renderFacets();
            });
          } else {
            self.renderFacets();
          }
        } else if (b.hasAttribute("data-facets-clear")) {
          self.filters = {};
          self.run(true);
          s.input.focus();
        }
      });
    }
    ready.then(function () { self.run(false); });
  }

  // readURL reads the query at once and the filters when the index has
  // named them; it resolves then.
  PageController.prototype.readURL = function () {
    var params = new URLSearchParams(root.location.search);
    this.s.input.value = params.get("q") || "";
    var self = this, s = this.s;
    return s.filters().then(function (known) {
      s.known = known;
      s.facetOrder().forEach(function (f) {
        var v = params.get(f);
        if (v) self.filters[f] = v.split(",").filter(Boolean);
      });
    });
  };

  // layout puts the filters after the results on a narrow screen, where
  // they fold away, and before them otherwise.
  PageController.prototype.layout = function () {
    if (!this.facetsEl) return;
    this.narrow = !!(root.matchMedia && root.matchMedia(NARROW).matches);
    if (this.narrow) this.more.after(this.facetsEl);
    else this.status.before(this.facetsEl);
  };

  // carryQuery makes the header's language switch (a static link to the
  // twin page) carry the query, so that switching language keeps it. It
  // works from file:// too: it changes only the link.
  PageController.prototype.carryQuery = function (q) {
    var sw = root.document.querySelector(".site-header a.lang");
    if (!sw) return;
    if (!sw.hasAttribute("data-href")) sw.setAttribute("data-href", sw.getAttribute("href"));
    var base = sw.getAttribute("data-href");
    sw.setAttribute("href", q ? base + "?q=" + encodeURIComponent(q) : base);
  };

  // writeURL puts the query and filters in the URL as a new history entry,
  // or, for a query being typed within TYPING_MS of the last one, in place
  // of that entry.
  PageController.prototype.writeURL = function (typed) {
    var params = new URLSearchParams();
    var q = this.s.input.value.trim();
    if (q) params.set("q", q);
    var self = this, order = this.s.facetOrder();
    order.concat(Object.keys(this.filters).filter(function (f) { return order.indexOf(f) < 0; }).sort())
      .forEach(function (f) { if (self.filters[f] && self.filters[f].length) params.set(f, self.filters[f].join(",")); });
    var qs = params.toString();
    var url = qs ? "?" + qs : root.location.pathname;
    if (url === root.location.search || (!qs && !root.location.search)) return;
    try {
      // Each search is a history entry, but a word typed letter by letter
      // is one search.
      var now = Date.now();
      if (typed && now - this.lastPush <= TYPING_MS) history.replaceState(null, "", url);
      else history.pushState(null, "", url);
      this.lastPush = now;
    } catch (e) {
      // Some browsers refuse to change file:// URLs; the search still works.
    }
  };

  // run searches and draws the results. updateURL writes the URL first:
  // "typed" for a query typed in the box, any other true value for a search
  // asked for otherwise (Enter, a filter), which is always a history entry.
  PageController.prototype.run = function (updateURL) {
    var s = this.s, self = this;
    if (updateURL) this.writeURL(updateURL === "typed");
    var q = s.input.value.trim();
    this.carryQuery(q);
    var my = ++this.seq;
    var active = !!q || hasFilters(this.filters);
    this.scope.classList.toggle("search-active", active);
    if (!active) return this.idle(my);
    if (tooShort(q) && !hasFilters(this.filters)) {
      this.status.textContent = s.t.short;
      this.results.replaceChildren();
      this.more.hidden = true;
      return Promise.resolve();
    }
    this.status.textContent = s.t.loading;
    // While a query is typed, the first results come first: their records
    // are all a query still being typed pays for.
    var limit = updateURL === "typed" ? Math.min(this.shown, FIRST_SHOWN) : this.shown;
    var opts = { filters: this.filters, limit: limit, lang: s.lang };
    return s.engine.search(s.input.value, opts).then(function (res) {
      if (my !== self.seq) return;
      self.last = res;
      self.render(res, q);
      // The rest of the page of results comes once the query has stayed as
      // it is for a moment: a query still being typed should not pay for it.
      return new Promise(function (resolve) { setTimeout(resolve, REST_DELAY_MS); }).then(function () {
        if (my !== self.seq) return;
        if (res.hits.length >= Math.min(self.shown, res.total)) return;
        opts.limit = self.shown;
        return s.engine.search(s.input.value, opts).then(function (all) {
          if (my !== self.seq) return;
          self.last = all;
          self.render(all, q);
        });
      });
    }).catch(function (err) {
      if (my !== self.seq) return;
      self.status.textContent = s.t.error;
      if (root.console) console.error(err);
    });
  };

  // idle shows the state before anything is typed or ticked: no results, and
  // the facet filters with their counts over every case, so that a reader can
  // start by filtering. It costs the small facet summary, which only the
  // search page and the list pages load; the header box never does.
  PageController.prototype.idle = function (my) {
    var s = this.s, self = this;
    this.status.textContent = this.listMode ? "" : s.t.prompt;
    if (this.listMode) this.heading(null);
    this.results.replaceChildren();
    this.more.hidden = true;
    if (!this.facetsEl) {
      this.last = null;
      return Promise.resolve();
    }
    this.last = null;
    return s.engine.summary(this.filters, this.expanded).then(function (facets) {
      if (my !== self.seq) return;
      self.counts = { scope: "library", facets: Object.keys(facets), terms: facets, busy: {} };
      self.renderFacets();
    }).catch(function (err) {
      if (my !== self.seq) return;
      self.facetsEl.replaceChildren();
      self.status.textContent = s.t.error;
      if (root.console) console.error(err);
    });
  };

  PageController.prototype.render = function (res, q) {
    var s = this.s, t = s.t, self = this;
    var focusedIndex = Array.prototype.indexOf.call(this.results.querySelectorAll("a"), document.activeElement);
    this.results.replaceChildren.apply(this.results, res.hits.map(function (h) {
      return s.resultItem(h.record, res.groups, true);
    }));
    if (focusedIndex >= 0) {
      var links = this.results.querySelectorAll("a");
      if (links[focusedIndex]) links[focusedIndex].focus();
    }
    this.more.hidden = res.total <= Math.max(res.hits.length, this.shown);
    var parts = [];
    if (res.total === 0) {
      parts.push(t.none(q));
      if (res.suggestion && res.suggestion.filters) {
        var drop = el("button", { type: "button", class: "search-suggestion", text: t.dropFilters(res.suggestion.filters) });
        drop.addEventListener("click", function () { self.filters = {}; self.run(true); });
        parts.push(" ", drop);
      } else if (res.suggestion && res.suggestion.query) {
        var again = el("button", { type: "button", class: "search-suggestion", text: res.suggestion.query });
        again.addEventListener("click", function () {
          s.input.value = res.suggestion.query;
          self.run(true);
          s.input.focus();
        });
        parts.push(" " + t.didYouMean + " ", again);
      }
    } else if (this.listMode) {
      // A filtered list says what it is filtered by, how many cases and which
      // of them it shows, as the static list does ("4건 중 1~4번째").
      parts.push(t.cases(res.total), " \u00b7 ", t.range(1, Math.min(res.hits.length, res.total), res.total));
    } else {
      parts.push(t.found(res.total, q));
      if (res.partial) parts.push(". " + t.partial);
    }
    if (this.listMode) this.heading(res);
    if (res.truncated) parts.push(" ", el("span", { class: "search-truncated", text: t.truncated }));
    this.status.replaceChildren.apply(this.status, parts);
    this.resultCounts(res);
  };

  // resultCounts shows the facet groups for a new result: a closed group
  // costs nothing, an open one fetches its facet's file (once) and shows
  // its counts among the results. The filtered facets' files are loaded
  // already; their labels name the filters in a list's heading.
  PageController.prototype.resultCounts = function (res) {
    if (!this.facetsEl) return;
    var s = this.s, self = this, my = this.seq;
    var was = this.counts;
    // Until its new counts come, an open group keeps showing the old ones,
    // marked busy, so that the control in use stays where it is.
    this.counts = { scope: "results", facets: was.facets, terms: {}, busy: {}, res: res, stale: was.stale || {} };
    Object.keys(was.terms).forEach(function (f) { if (was.terms[f]) self.counts.stale[f] = was.terms[f]; });
    s.engine.manifest().then(function (m) {
      if (my !== self.seq || self.counts.res !== res) return;
      self.counts.facets = m.facets;
      self.renderFacets();
      if (hasFilters(self.filters)) {
        s.engine.facets(Object.keys(self.filters)).then(function (data) {
          if (my !== self.seq) return;
          self.remember(data);
          if (self.listMode) self.heading(res);
        });
      }
      m.facets.filter(function (f) { return self.opened[f]; }).forEach(function (f) { self.groupCounts(f); });
    });
  };

  // groupCounts fetches, when needed, and shows the counts of facet f among
  // the current results.
  PageController.prototype.groupCounts = function (f) {
    var c = this.counts, self = this;
    if (c.scope !== "results" || c.terms[f]) return;
    c.busy[f] = true;
    this.renderFacets();
    this.s.engine.counts(c.res, [f]).then(function (counts) {
      if (self.counts !== c) return;
      c.terms[f] = counts[f];
      delete c.busy[f];
      self.renderFacets();
    }).catch(function (err) {
      if (self.counts !== c) return;
      delete c.busy[f];
      self.renderFacets();
      self.status.textContent = self.s.t.error;
      if (root.console) console.error(err);
    });
  };

  // toggleGroup opens or closes the group of facet f.
  PageController.prototype.toggleGroup = function (f) {
    this.opened[f] = !this.opened[f];
    if (this.opened[f]) this.groupCounts(f);
    this.renderFacets();
  };

  // remember keeps the labels of facet terms ({facet: terms}), which name
  // the filters in a list's heading.
  PageController.prototype.remember = function (facets) {
    var labels = this.labels = this.labels || {};
    Object.keys(facets).forEach(function (f) {
      if (!facets[f]) return;
      labels[f] = labels[f] || {};
      facets[f].forEach(function (x) { labels[f][x.id] = x.label || x.l; });
    });
  };

  // heading names, in a list page's <h1>, the filters the list is narrowed
  // by ("All cases · Component: Ingress controller"), and restores the
  // page's own heading when they are cleared.
  PageController.prototype.heading = function (res) {
    var h1 = document.querySelector("main h1") || document.querySelector("h1");
    if (!h1) return;
    if (this.h1Text == null) this.h1Text = h1.textContent;
    var s = this.s, t = s.t, filters = this.filters, by = [];
    // Labels come with the facet lists (the idle summary has them before
    // any result); a term not seen yet is named by its id.
    var known = this.labels || {}, order = s.facetOrder();
    Object.keys(filters).sort(function (a, b) { return order.indexOf(a) - order.indexOf(b); }).forEach(function (f) {
      if (!filters[f] || !filters[f].length) return;
      var labels = filters[f].map(function (id) {
        var l = known[f] && known[f][id];
        return l ? (l[s.li] || l[1 - s.li] || id) : id;
      });
      by.push(s.facetName(f) + ": " + labels.join(", "));
    });
    h1.textContent = by.length ? this.h1Text + " \u00b7 " + by.join(" \u00b7 ") : this.h1Text;
  };

  // renderFacets draws the facet groups from this.counts: one <fieldset>
  // per facet whose legend is the button that opens it, named with the
  // facet and how many of its terms are chosen. An open group lists its
  // terms with their counts and says what the counts are of.
  PageController.prototype.renderFacets = function () {
    var box = this.facetsEl;
    if (!box) return;
    var s = this.s, t = s.t, self = this, c = this.counts;
    this.remember(c.terms);
    // The focus is put back on the same control once the groups are redrawn.
    var active = document.activeElement, focusSel = null;
    if (active && box.contains(active)) {
      if (active.matches('input[type="checkbox"]')) {
        focusSel = 'input[name="' + CSS.escape(active.name) + '"][value="' + CSS.escape(active.value) + '"]';
      } else {
        ["data-facet-toggle", "data-facet-more", "data-facets-clear"].forEach(function (a) {
          if (active.hasAttribute(a)) focusSel = "[" + a + '="' + CSS.escape(active.getAttribute(a)) + '"]';
        });
      }
    }
    var base = (box.id || "facets") + "-";
    var sets = c.facets.map(function (f) {
      var chosen = self.filters[f] || [], name = s.facetName(f);
      var body = el("div", { class: "search-facet-body", id: base + f });
      var toggle = el("button", { type: "button", class: "search-facet-toggle", "data-facet-toggle": f,
        "aria-expanded": self.opened[f] ? "true" : "false", "aria-controls": body.id, text: t.group(name, chosen.length) });
      var set = el("fieldset", { class: "search-facet", "data-facet": f }, [el("legend", null, [toggle]), body]);
      if (!self.opened[f]) {
        body.hidden = true;
        return set;
      }
      var list = c.terms[f], scope = c.scope === "library" ? t.countsLibrary : chosen.length ? t.countsUnfiltered : t.countsResults;
      if (c.busy[f] || !list) {
        set.setAttribute("aria-busy", "true");
        list = c.stale && c.stale[f];
        scope = t.counting;
      }
      body.append(el("p", { class: "search-facet-scope", text: scope }));
      if (!list) return set;
      var all = list.map(function (x) {
        return { id: x.id, label: x.label, count: x.count, selected: chosen.indexOf(x.id) >= 0 };
      });
      var terms = all.filter(function (x) { return x.count > 0 || x.selected; });
      terms.sort(s.newestFirst(f)
        ? function (a, b) { return a.id < b.id ? 1 : a.id > b.id ? -1 : 0; }
        : function (a, b) { return (b.count - a.count) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0); });
      // The idle summary holds the first terms only, and the number of all.
      var total = c.scope === "library" && list.total ? list.total : terms.length;
      var visible = terms;
      if (!self.expanded[f] && terms.length > FACET_SHOWN) {
        visible = terms.filter(function (x, i) { return i < FACET_SHOWN || x.selected; });
      }
      body.append(el("ul", null, visible.map(function (x) {
        var input = el("input", { type: "checkbox", name: f, value: x.id });
        input.checked = x.selected;
        var label = x.label[s.li] || x.label[1 - s.li] || x.id;
        return el("li", null, [el("label", null, [
          input, " ", el("span", { class: "search-facet-label", text: label }), " ",
          el("span", { class: "search-facet-count", text: "(" + x.count + ")" })
        ])]);
      })));
      if (total > FACET_SHOWN) {
        body.append(el("button", { type: "button", class: "search-facet-more", "data-facet-more": f,
          "aria-expanded": self.expanded[f] ? "true" : "false",
          text: self.expanded[f] ? t.fewer : t.showAll(total) }));
      }
      return set;
    });
    if (hasFilters(this.filters)) {
      sets.push(el("button", { type: "button", class: "search-facets-clear", "data-facets-clear": "", text: t.clear }));
    }
    box.replaceChildren.apply(box, sets);
    if (focusSel) {
      var again = box.querySelector(focusSel);
      if (again) again.focus();
    }
  };

  // BoxController runs a header search box: results as you type in a list
  // under the input, Enter on the input goes to the search page.
  function BoxController(form) {
    var s = this.s = new Setup(form);
    var self = this;
    this.seq = 0;
    this.list = el("ol", { class: "search-suggest", id: "search-suggest-" + (++BoxController.n), hidden: "" });
    s.input.after(this.list);
    // aria-expanded is not allowed on a plain search field; as a combobox
    // the input may say that it controls the list and whether it is open.
    s.input.setAttribute("role", "combobox");
    s.input.setAttribute("aria-autocomplete", "list");
    s.input.setAttribute("aria-controls", this.list.id);
    s.input.setAttribute("aria-expanded", "false");
    s.input.addEventListener("input", debounce(function () { self.run(); }));
    s.input.addEventListener("keydown", function (ev) {
      if (ev.key === "Escape") {
        ev.preventDefault();
        if (!self.list.hidden) self.close(); else s.input.value = "";
      } else if (ev.key === "ArrowDown" && !self.list.hidden) {
        moveFocus(ev, s.input, self.list);
      }
    });
    this.list.addEventListener("keydown", function (ev) {
      if (ev.key === "Escape") {
        ev.preventDefault();
        self.close();
        s.input.focus();
      } else {
        moveFocus(ev, s.input, self.list);
      }
    });
    form.addEventListener("focusout", function () {
      setTimeout(function () { if (!form.contains(document.activeElement)) self.close(); }, 0);
    });
    form.addEventListener("submit", function (ev) {
      if (!s.input.value.trim()) ev.preventDefault();
    });
  }
  BoxController.n = 0;

  BoxController.prototype.close = function () {
    this.list.hidden = true;
    this.s.input.setAttribute("aria-expanded", "false");
  };

  BoxController.prototype.run = function () {
    var s = this.s, self = this, my = ++this.seq;
    var q = s.input.value.trim();
    if (!q) {
      this.list.replaceChildren();
      this.close();
      return Promise.resolve();
    }
    if (tooShort(q)) {
      this.list.replaceChildren(el("li", { class: "search-suggest-none", text: s.t.short }));
      this.list.hidden = false;
      s.input.setAttribute("aria-expanded", "true");
      return Promise.resolve();
    }
    return s.engine.search(s.input.value, { limit: BOX_SIZE, lang: s.lang }).then(function (res) {
      if (my !== self.seq) return;
      var items = res.hits.map(function (h) { return s.resultItem(h.record, res.groups, false); });
      if (res.total === 0) {
        items.push(el("li", { class: "search-suggest-none", text: s.t.noneShort }));
      } else {
        var page = s.form.getAttribute("action") || "";
        items.push(el("li", { class: "search-suggest-all" }, [
          el("a", { href: page + "?q=" + encodeURIComponent(q), text: s.t.seeAll(q) + " (" + s.t.cases(res.total) + ")" })
        ]));
      }
      self.list.replaceChildren.apply(self.list, items);
      self.list.hidden = false;
      s.input.setAttribute("aria-expanded", "true");
    }).catch(function (err) {
      if (my !== self.seq) return;
      self.list.replaceChildren(el("li", { class: "search-suggest-none", text: s.t.error }));
      self.list.hidden = false;
      if (root.console) console.error(err);
    });
  };

  function start() {
    var forms = document.querySelectorAll("form[data-search-root]");
    Array.prototype.forEach.call(forms, function (form) {
      if (form.__incidentSearch) return;
      form.__incidentSearch = form.getAttribute("data-search") === "page" ? new PageController(form) : new BoxController(form);
    });
  }

  var api = {
    analyze: analyze,
    indexTerms: indexTerms,
    query: query,
    stemEnglish: stemEnglish,
    highlightRanges: highlightRanges,
    passage: passage,
    Engine: Engine,
    fileKey: fileKey,
    loader: loader,
    // open returns an engine for the index at base (a URL ending in "/").
    open: function (base, useScript) { return new Engine(loader(base, useScript)); },
    // start wires every search form on the page; it runs by itself on load.
    start: start,
    strings: STRINGS
  };
  root.IncidentSearch = api;
  if (typeof module === "object" && module.exports) module.exports = api;
  if (typeof document !== "undefined" && document.querySelectorAll) {
    if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
    else start();
  }
})(typeof window !== "undefined" ? window : globalThis);
