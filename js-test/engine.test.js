// Runs the browser engine against the golden index that
// internal/search/index_test.go builds (go test ./internal/search -update),
// with the queries that the Go reference reader also runs.
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const fs = require("node:fs");
const path = require("node:path");
const vm = require("node:vm");
const S = require("../static/js/search.js");

const testdata = path.join(__dirname, "..", "internal", "search", "testdata");
const golden = path.join(testdata, "golden", "search");
const queries = JSON.parse(fs.readFileSync(path.join(testdata, "queries.json"), "utf8")).queries;

// jsonLoader reads X.json, as fetch does over HTTP.
function jsonLoader(loaded) {
  return (name) => {
    loaded && loaded.push(name);
    return Promise.resolve(JSON.parse(fs.readFileSync(path.join(golden, name + ".json"), "utf8")));
  };
}

// scriptLoader runs X.js in a fresh global that has a window, as a <script>
// element does from file://, and reads what it registered.
function scriptLoader() {
  return (name) => {
    const ctx = { window: {} };
    ctx.window = ctx;
    vm.runInNewContext(fs.readFileSync(path.join(golden, name + ".js"), "utf8"), ctx);
    return Promise.resolve(ctx.__ilsearch[name]);
  };
}

const ids = (res) => res.hits.map((h) => h.record.id);

for (const [kind, load] of [["json", jsonLoader], ["script", scriptLoader]]) {
  for (const q of queries) {
    test(`${kind}: ${q.name}`, async () => {
      const engine = new S.Engine(load());
      const res = await engine.search(q.q, { filters: q.filters || {}, limit: 50 });
      const got = ids(res);
      for (const id of q.include || []) assert.ok(got.includes(id), `${q.q}: ${id} missing from ${got}`);
      for (const id of q.exclude || []) assert.ok(!got.includes(id), `${q.q}: ${id} found in ${got}`);
      if (q.first) assert.equal(got[0], q.first, `${q.q}: ranked ${got}`);
      if (q.order) assert.deepEqual(got, q.order);
      assert.equal(res.partial, !!q.partial, "partial");
      assert.equal(res.total, got.length);
    });
  }
}

test("a query loads only the files of its terms and its results", async () => {
  const loaded = [];
  const engine = new S.Engine(jsonLoader(loaded));
  await engine.search("hubspot", { limit: 1 });
  const buckets = loaded.filter((n) => n.startsWith("t/"));
  assert.equal(buckets.length, 1, `loaded ${loaded}`);
  assert.equal(loaded.filter((n) => n.startsWith("b/")).length, 1, `loaded ${loaded}`);
  assert.ok(!loaded.some((n) => n.startsWith("f/") || n === "facets"), "facets are loaded only when asked for");
  assert.deepEqual(loaded.filter((n) => n.startsWith("r/")), ["r/0"], "one record for one result");
  const manifest = JSON.parse(fs.readFileSync(path.join(golden, "manifest.json"), "utf8"));
  assert.ok(manifest.groups.length > 1, "the golden index should have several groups");
  assert.ok(fs.readdirSync(path.join(golden, "t")).length > 8, "the golden index should have several buckets");
});

test("a record holds both languages, one file per case", async () => {
  const loaded = [];
  const engine = new S.Engine(jsonLoader(loaded));
  const res = await engine.search("certificate", { lang: "ko" });
  assert.deepEqual(loaded.filter((n) => n.startsWith("r/")), ["r/2"]);
  const r = res.hits[0].record;
  assert.deepEqual(r.t, ["An expired certificate stopped the API gateway", "만료된 인증서 때문에 API 게이트웨이가 멈췄다"]);
  assert.deepEqual(r.o, ["Example Corp", "예시 회사"]);
  assert.deepEqual(r.u, ["en/cases/IL-0029/", "ko/cases/IL-0029/"]);
});

test("facet counts are for the current results", async () => {
  const engine = new S.Engine(jsonLoader());
  const res = await engine.search("load balancer", { facets: true, filters: { domains: ["gcp"] } });
  const count = (facet, id) => res.facets[facet].find((t) => t.id === id).count;
  assert.deepEqual(ids(res).sort(), ["IL-0054", "IL-0338"]);
  // Another facet counts within the filtered results…
  assert.equal(count("components", "cloud-load-balancer"), 2);
  assert.equal(count("components", "ingress"), 1);
  assert.equal(count("components", "cache"), 0);
  // …while the filtered facet counts as if its own filter were off, so that
  // adding a second domain shows what it adds.
  assert.equal(count("domains", "gcp"), 2);
  assert.equal(count("domains", "kubernetes"), 2);
  assert.ok(res.facets.domains.find((t) => t.id === "gcp").selected);
  assert.deepEqual(res.facets.components.find((t) => t.id === "ingress").label, ["Ingress controller", "인그레스 컨트롤러"]);
});

test("counts for the facets asked for load only their files and those of the filters", async () => {
  const loaded = [];
  const engine = new S.Engine(jsonLoader(loaded));
  const res = await engine.search("load balancer", { filters: { domains: ["gcp"] } });
  assert.deepEqual(loaded.filter((n) => n.startsWith("f/")), ["f/domains"], "filtering loads the filtered facet only");
  const one = await engine.counts(res, ["components"]);
  assert.deepEqual(Object.keys(one), ["components"]);
  assert.deepEqual(loaded.filter((n) => n.startsWith("f/")).sort(), ["f/components", "f/domains"]);
  const all = await new S.Engine(jsonLoader()).search("load balancer", { facets: true, filters: { domains: ["gcp"] } });
  assert.deepEqual(one.components, all.facets.components, "the same counts as when every facet is counted");
});

test("two values of one facet widen, two facets narrow", async () => {
  const engine = new S.Engine(jsonLoader());
  const wide = await engine.search("", { filters: { years: ["2018", "2019"] } });
  assert.deepEqual(ids(wide), ["IL-0054", "IL-0338"]);
  const narrow = await engine.search("", { filters: { years: ["2018", "2019"], components: ["ingress"] } });
  assert.deepEqual(ids(narrow), ["IL-0054"]);
});

test("no results: suggestions", async () => {
  const engine = new S.Engine(jsonLoader());
  const filtered = await engine.search("hubspot", { filters: { domains: ["gcp"] } });
  assert.equal(filtered.total, 0);
  assert.deepEqual(filtered.suggestion, { filters: 1 });
  const typo = await engine.search("honeycomp", {});
  assert.equal(typo.total, 0);
  assert.deepEqual(typo.suggestion, { query: "honeycomb" });
  const again = await engine.search(typo.suggestion.query, {});
  assert.deepEqual(ids(again), ["IL-0202"]);
});

test("paging and records", async () => {
  const engine = new S.Engine(jsonLoader());
  const all = await engine.search("", { filters: { domains: ["kubernetes", "networking", "gcp"] }, limit: 50 });
  assert.equal(all.total, 6);
  // Newest first, and IL-0029 before IL-0106 on the same day.
  assert.deepEqual(ids(all), ["IL-0495", "IL-0202", "IL-0029", "IL-0106", "IL-0054", "IL-0338"]);
  const page2 = await engine.search("", { filters: { domains: ["kubernetes", "networking", "gcp"] }, offset: 4, limit: 4 });
  assert.deepEqual(ids(page2), ["IL-0054", "IL-0338"]);
  const r = page2.hits[1].record;
  assert.deepEqual(r.u, ["en/cases/IL-0338/", "ko/cases/IL-0338/"]);
  assert.ok(r.x[0].length > 0 && r.x[1].length > 0 && r.t[0].startsWith("Google Cloud"));
});

test("prefix matches while typing and ranks below the whole word", async () => {
  const engine = new S.Engine(jsonLoader());
  const done = await engine.search("balancer ", {});
  const typing = await engine.search("balanc", {});
  assert.ok(done.total >= 3, `found ${ids(done)}`);
  assert.deepEqual(ids(typing).sort(), ids(done).sort());
  assert.equal((await engine.search("balanc ", {})).total, 0, "a finished word does not match as a prefix");
  const whole = await engine.search("certificate ", {});
  const part = await engine.search("certif", {});
  assert.equal(part.hits[0].score, whole.hits[0].score * 0.8);
});

test("empty state: the summary counts every case and is all the page loads", async () => {
  const loaded = [];
  const engine = new S.Engine(jsonLoader(loaded));
  const sum = await engine.summary({ components: ["ingress"] });
  assert.deepEqual(loaded, ["facets"]);
  const all = await engine.search("", { all: true, facets: true, limit: 0 });
  const pairs = (list) => list.map((t) => t.id + "=" + t.count).sort();
  for (const f of Object.keys(all.facets)) {
    assert.deepEqual(pairs(sum[f]), pairs(all.facets[f]), f);
    assert.equal(sum[f].total, all.facets[f].length, f);
  }
  assert.deepEqual(sum.years.map((t) => t.id), ["2024", "2023", "2021", "2019", "2018"], "years newest first");
  assert.ok(sum.components.find((t) => t.id === "ingress").selected);
});

test("empty state: the summary holds the first terms of a facet; showing all loads the facet", async () => {
  const loaded = [];
  // A summary cut as the build cuts it at eight terms, over a facet of ten.
  const terms = Array.from({ length: 10 }, (_, i) => ({ id: "t" + i, l: ["T" + i, "T" + i], n: 10 - i }));
  const files = {
    facets: [{ facet: "components", all: 10, terms: terms.slice(0, 8) }],
    manifest: {
      v: 3, docs: 10, scale: 10, groups: [], facets: ["components"],
      layout: { groups: "b/{key}", buckets: "t/{key}", key: "dash-64w", records: "r/{doc}", suggestions: "s/{key}", facets: "f/{facet}" },
    },
    "f/components": { facet: "components", terms: terms.map((t) => ({ ...t, d: [0] })) },
  };
  const engine = new S.Engine((name) => { loaded.push(name); return Promise.resolve(JSON.parse(JSON.stringify(files[name]))); });
  const idle = await engine.summary({});
  assert.equal(idle.components.length, 8);
  assert.equal(idle.components.total, 10);
  assert.deepEqual(loaded, ["facets"]);
  const whole = await engine.summary({}, { components: true });
  assert.equal(whole.components.length, 10);
  assert.deepEqual(loaded, ["facets", "manifest", "f/components"]);
});

test("empty state: every case counts, no record is loaded", async () => {
  const loaded = [];
  const engine = new S.Engine(jsonLoader(loaded));
  const res = await engine.search("", { all: true, facets: true, limit: 0 });
  const manifest = JSON.parse(fs.readFileSync(path.join(golden, "manifest.json"), "utf8"));
  assert.equal(res.total, manifest.docs);
  assert.deepEqual(res.hits, []);
  assert.ok(!loaded.some((n) => n.startsWith("r/") || n.startsWith("t/")), `loaded ${loaded}`);
  assert.deepEqual(Object.keys(res.facets).sort(), manifest.facets.slice().sort());
  // Each count is the term's own document count in its facet file: the
  // whole library, before any query or filter.
  for (const f of manifest.facets) {
    const file = JSON.parse(fs.readFileSync(path.join(golden, "f", f + ".json"), "utf8"));
    for (const t of file.terms) {
      const got = res.facets[f].find((x) => x.id === t.id);
      assert.equal(got.count, t.n, `${f}/${t.id}`);
      assert.equal(got.selected, false);
    }
  }
  assert.equal(res.facets.components.find((t) => t.id === "ingress").count, 3);
});

test("empty state: without all, an empty query still finds nothing", async () => {
  const engine = new S.Engine(jsonLoader());
  const res = await engine.search("", { facets: true });
  assert.equal(res.total, 0);
  assert.ok(res.facets.components.every((t) => t.count === 0));
});

test("empty state: ticking a facet gives results whose number is its count", async () => {
  const engine = new S.Engine(jsonLoader());
  const idle = await engine.search("", { all: true, facets: true, limit: 0 });
  for (const t of idle.facets.components) {
    const res = await engine.search("", { all: true, facets: true, filters: { components: [t.id] }, limit: 50 });
    assert.equal(res.total, t.count, `components=${t.id}`);
    assert.equal(res.hits.length, t.count);
    assert.ok(res.facets.components.find((x) => x.id === t.id).selected);
  }
});

// The Go engine (internal/search/engine.go) wrote these answers; the browser
// engine must give the same, so that both stay one engine.
const vectors = JSON.parse(fs.readFileSync(path.join(testdata, "engine.json"), "utf8")).queries;

function answer(res) {
  const counts = {};
  for (const [f, terms] of Object.entries(res.facets || {})) {
    for (const t of terms) {
      if (t.count > 0) (counts[f] = counts[f] || {})[t.id] = t.count;
    }
  }
  return {
    ids: ids(res),
    scores: res.hits.map((h) => Math.round(h.score * 1e6) / 1e6),
    total: res.total,
    partial: res.partial,
    counts,
    truncated: !!res.truncated,
    didYouMean: (res.suggestion && res.suggestion.query) || "",
    dropFilters: (res.suggestion && res.suggestion.filters) || 0,
  };
}

test("the engine vector file is complete", () => {
  assert.ok(vectors.length >= 20, `only ${vectors.length} engine vectors`);
});

for (const v of vectors) {
  test(`engine vector: ${v.name}`, async () => {
    const engine = new S.Engine(jsonLoader());
    const res = await engine.search(v.q, { filters: v.filters || {}, facets: true, all: v.q.trim() === "", limit: 1000 });
    assert.deepEqual(answer(res), v.want);
  });
}

test("fileKey: names Windows keeps for devices get a _ after them, as layout.go's fileKey does", () => {
  const want = { con: "con_", nul: "nul_", aux: "aux_", prn: "prn_", com1: "com1_", lpt9: "lpt9_", cons: "cons", com10: "com10", "": "-", "con.": "con-002e" };
  for (const [s, k] of Object.entries(want)) assert.strictEqual(S.fileKey(s), k, s);
});
