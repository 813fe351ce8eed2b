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
