// Runs the shared tokenizer vectors against the browser tokenizer; the Go
// side runs the same file in internal/search/tokenize_test.go.
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const fs = require("node:fs");
const path = require("node:path");
const S = require("../static/js/search.js");

const vectors = JSON.parse(fs.readFileSync(path.join(__dirname, "..", "testdata", "tokenize", "vectors.json"), "utf8"));

// The engine's groups carry a non-enumerable raw; compare what the vectors hold.
const plain = (groups) => groups.map((g) => ({ any: g.any, all: g.all, prefix: g.prefix }));

test("the vector file is complete", () => {
  assert.ok(vectors.cases.length >= 20, `only ${vectors.cases.length} vectors`);
});

for (const c of vectors.cases) {
  test(`vector: ${c.name}`, () => {
    assert.deepEqual(S.indexTerms(c.in), c.index, "index terms");
    assert.deepEqual(plain(S.query(c.in, false)), c.query, "query");
    assert.deepEqual(plain(S.query(c.in, true)), c.typing, "typing");
  });
}

test("stemmer meets at one stem", () => {
  for (const [words, stem] of [[["cache", "caches", "cached", "caching"], "cach"], [["retry", "retries", "retried"], "retry"], [["update", "updates", "updated", "updating"], "updat"]]) {
    for (const w of words) assert.equal(S.stemEnglish(w), stem, w);
  }
});

test("highlight ranges cover the matched words", () => {
  const text = "로드 밸런서를 늘렸다. Load balancers failed";
  const groups = S.query("로드밸런서가 balancer", false);
  const marked = S.highlightRanges(text, groups).map(([s, e]) => text.slice(s, e));
  assert.deepEqual(marked, ["로드", "밸런서", "balancers"]);
});

test("highlighting marks whole matches only", () => {
  const mark = (text, q) => S.highlightRanges(text, S.query(q, false)).map(([s, e]) => text.normalize("NFC").slice(s, e));
  // A two-syllable word is not marked inside another word…
  assert.deepEqual(mark("워크로드 로드를 늘렸다", "로드"), ["로드"]);
  // …but is from the start of a compound, and three syllables are anywhere.
  assert.deepEqual(mark("로드밸런서가 멈췄다", "로드"), ["로드"]);
  assert.deepEqual(mark("로드밸런서가 멈췄다", "밸런서"), ["밸런서"]);
  // The bigrams of a query word are never marked on their own.
  assert.deepEqual(mark("인증 서비스와 인증서", "인증서"), ["인증서"]);
  assert.deepEqual(mark("레지스트리 클러스터", "레지스터"), []);
  // Numbers with counters, full width.
  assert.deepEqual(mark("3월에 30분 동안", "3월"), ["3월"]);
  assert.deepEqual(mark("HAProxy 설정", "ＨＡＰｒｏｘｙ"), ["HAProxy"]);
});

test("a passage does not start with a particle written apart from the word before it", () => {
  // The match is far into the text, so the passage starts at a space before
  // it; the spaces before 의 and 가 are the ones a passage must not take.
  const filler = "가나다 ".repeat(30);
  const text = filler + "HubSpot 의 트래픽 kubeconfig 가 없어 로드 밸런서 일부가 헬스 체크에 실패했다 " + "라마바 ".repeat(40);
  for (let n = 40; n <= 120; n += 3) {
    const p = S.passage(text, S.query("헬스", false), n);
    assert.doesNotMatch(p, /^…(의|가) /, `n=${n}: ${p}`);
    assert.match(p, /헬스/, `n=${n}: ${p}`);
  }
  // The rule does not skip an ordinary Korean word after a Korean word.
  const plain = "가나다 ".repeat(30) + "로드 밸런서 일부가 헬스 체크에 실패했다 " + "라마바 ".repeat(40);
  assert.match(S.passage(plain, S.query("헬스", false), 60), /^…가나다 /);
});
