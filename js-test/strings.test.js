// The search page's own words: Korean counts with counters, dates are
// written as each language writes them, whole or partial, as the Go side
// (internal/l10n) writes them on the pages.
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const S = require("../static/js/search.js");

test("Korean result counts and facet toggles read as Korean", () => {
  const ko = S.strings.ko;
  assert.equal(ko.found(5, "로드밸런서"), "\u201c로드밸런서\u201d 검색 결과 5건");
  assert.equal(ko.found(5, ""), "사례 5건");
  assert.equal(ko.showAll(12), "12개 모두 보기");
  assert.equal(ko.fewer, "접기");
  assert.equal(ko.group("구성 요소", 0), "구성 요소");
  assert.equal(ko.group("구성 요소", 2), "구성 요소 (2개 선택)");
  assert.equal(S.strings.en.group("Component", 1), "Component (1 selected)");
});

test("a filter group says what its numbers count, in both languages", () => {
  for (const lang of ["en", "ko"]) {
    const t = S.strings[lang];
    const said = [t.countsLibrary, t.countsResults, t.countsUnfiltered];
    assert.equal(new Set(said).size, 3, lang);
    // Korean interface sentences end in 합니다체.
    if (lang === "ko") for (const s of said) assert.match(s, /니다\.$/);
  }
});

test("dates, whole and partial, in both languages", () => {
  const cases = [
    ["en", "2024-08-27", "27 August 2024"],
    ["en", "2019-04", "April 2019"],
    ["en", "2019", "2019"],
    ["ko", "2024-08-27", "2024년 8월 27일"],
    ["ko", "2019-04", "2019년 4월"],
    ["ko", "2019", "2019년"],
    // A case whose source gives no date, as templates/strings.json's
    // date.unknown writes it.
    ["en", "", "date unknown"],
    ["ko", "", "날짜 미상"],
  ];
  for (const [lang, iso, want] of cases) {
    assert.equal(S.strings[lang].date(iso), want, lang + " " + iso);
  }
});

test("a list's range, as the static list writes it", () => {
  assert.equal(S.strings.ko.range(1, 4, 4), "4건 중 1~4번째");
  assert.equal(S.strings.en.range(1, 20, 34), "1\u201320 of 34");
});

test("every word the script's table uses is in the catalogue, in both languages", () => {
  const fs = require("node:fs");
  const path = require("node:path");
  const src = fs.readFileSync(path.join(__dirname, "..", "static", "js", "search.js"), "utf8");
  // The words strings(w) reads from its catalogue part w.
  const body = src.slice(src.indexOf("function strings(w) {"), src.indexOf("var STRINGS ="));
  const used = new Set([...body.matchAll(/\bw\.(\w+)/g)].map((m) => m[1]));
  assert.ok(used.size >= 15, "found only " + used.size + " words");
  const catalogue = require("../templates/strings.json");
  for (const k of used) {
    for (const lang of ["en", "ko"]) assert.ok((catalogue["js." + k] || {})[lang], lang + " js." + k);
  }
});
