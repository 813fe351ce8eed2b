package api

import (
	"fmt"
	"strings"

	"incidentlib/internal/cases"
)

// readmeKo is the zip's README.ko.md: the same files, fields and columns
// as README.md (readme), written for a Korean reader. The descriptions
// are kept here by field name; TestReadmeKoNamesEveryField fails when the
// schema or cases.csv gains a field this table does not describe.
func (w *writer) readmeKo() []byte {
	var b strings.Builder
	lic := w.lib.Settings.License
	fmt.Fprintf(&b, "# incidentlib 사례 모음, 라이브러리 버전 %s\n\n", w.l.Version)
	if lic.Name != "" {
		fmt.Fprintf(&b, "라이선스: %s (%s).\n\n", lic.Name, lic.URL)
	}
	fmt.Fprintf(&b, "%s의 사례를 모두 담았습니다. 목록에 있는 사례가 %d건, 철회된 사례가 %d건입니다.\n\n", w.base, len(w.lib.Cases), len(w.lib.Withdrawn))
	b.WriteString("- `cases/ID.json`: 라이브러리에 작성된 그대로의 사례입니다. 철회된 사례에는 `withdrawn`이 있습니다.\n")
	b.WriteString("- `vocab.json`: 통제 어휘 필드의 모든 용어입니다. 용어마다 영어와 한국어 이름, 사례 수가 있습니다.\n")
	b.WriteString("- `schema/case.json`, `schema/vocab.json`, `schema/site.json`: 각 형식의 JSON 스키마입니다.\n\n")
	b.WriteString("README.md는 같은 내용을 영어로 적은 것입니다.\n\n")
	b.WriteString("같은 사례가 이 zip 옆에 `cases.csv`(사례 하나가 한 행)와 `cases.jsonl`(사례 하나가 한 줄, 이 버전과 라이선스를 적은 `incidentlib` 멤버 포함)로도 공개돼 있습니다.\n\n")
	b.WriteString("## 사례의 필드\n\n")
	for _, p := range cases.CaseSchema.Props {
		opt := ""
		if p.Optional {
			opt = " (선택)"
		}
		fmt.Fprintf(&b, "- `%s`%s: %s\n", p.Name, opt, koFieldDocs[p.Name])
		for _, q := range p.Props {
			fmt.Fprintf(&b, "  - `%s`: %s\n", q.Name, koSubfieldDoc(p.Name, q.Name))
		}
	}
	b.WriteString("\n## cases.csv의 열\n\n")
	b.WriteString("UTF-8(바이트 순서 표시 포함), RFC 4180 형식입니다. 첫 행은 머리글이고 줄 끝은 CRLF이며, 쉼표나 큰따옴표, 줄바꿈이 든 값은 큰따옴표로 감쌉니다.\n\n")
	for _, col := range csvColumns() {
		fmt.Fprintf(&b, "- `%s`: %s\n", col.name, koColumnDoc(col.name))
	}
	return []byte(b.String())
}

// koBilingual describes the en and ko members of a text in both languages.
var koBilingual = map[string]string{
	"en": "영어 본문입니다. 문단은 빈 줄로 나누고 인라인 Markdown을 쓸 수 있습니다. 빠지거나 비어 있으면 번역이 없는 것으로 봅니다.",
	"ko": "한국어 본문입니다. 문단은 빈 줄로 나누고 인라인 Markdown을 쓸 수 있습니다. 빠지거나 비어 있으면 번역이 없는 것으로 봅니다.",
}

// koBoth is said of every text written in both languages.
const koBoth = " 영어와 한국어로 쓰며, 빈 문자열이나 빠진 언어는 번역이 없다는 표시입니다."

// koFieldDocs describes each top-level field of a case.
var koFieldDocs = map[string]string{
	"$schema":       "이 파일이 따르는 JSON 스키마의 주소입니다. 편집기가 입력하는 동안 파일을 검사하도록 적으며, 사례의 내용은 아닙니다.",
	"draft":         "사례를 쓰는 동안 true입니다(incidentlib new가 넣습니다). 미리 보기는 표시를 붙여 보여 주고, build, check, API는 빼놓습니다. 공개하려면 이 줄을 지우거나 false로 둡니다.",
	"id":            "IL-0495 같은 사례 ID입니다. 파일 이름도 이 ID를 따릅니다.",
	"org":           "장애를 겪은 조직입니다.",
	"org_slug":      "조직의 URL 슬러그입니다.",
	"date":          "YYYY-MM-DD 형식의 날짜입니다. 보고서에 일이나 월이 없으면 YYYY-MM이나 YYYY로, 날짜가 없으면 null로 둡니다.",
	"date_kind":     "날짜가 무엇의 날짜인지 나타냅니다.",
	"title":         "한 문장 제목입니다." + koBoth,
	"summary":       "무슨 일이 있었는지 몇 문단으로 적습니다." + koBoth,
	"symptoms_text": "사용자와 운영자가 본 증상입니다." + koBoth,
	"trigger":       "장애를 일으킨 계기입니다." + koBoth,
	"detection":     "장애를 알아챈 방법입니다." + koBoth,
	"lessons":       "조직이 얻은 교훈이며, 보고서에 없으면 null입니다." + koBoth,
	"remediation":   "복구하려고 한 일을 순서대로 적습니다.",
	"action_items":  "사후에 계획하거나 실행한 조치입니다.",
	"impact":        "영향을 받은 사람과 대상입니다. 알 수 없으면 \"unknown\"입니다.",
	"severity":      "조직이 직접 매긴 심각도 용어 ID이며, 모르면 \"unknown\"입니다(빼놓은 것과 같습니다).",
	"symptoms":      "증상 용어 ID입니다.",
	"components":    "구성 요소 용어 ID입니다.",
	"root_cause":    "원인 용어 ID입니다.",
	"contributing":  "기여 요인 용어 ID입니다.",
	"domain":        "분야 용어 ID입니다.",
	"impact_level":  "영향 수준 용어 ID입니다. 장애가 사용자에게 끼친 가장 큰 영향을 나타냅니다.",
	"timeline":      "영향이 시작된 때부터 탐지, 완화, 종료까지 걸린 시간과 출처가 밝힌 시각입니다.",
	"sources":       "사례를 작성한 근거가 된 공개 문서입니다.",
	"related":       "편집자가 이 사례와 연결한 사례의 ID입니다.",
	"recurrence_of": "이 사례가 되풀이한 이전 사례의 ID이며, 없으면 null입니다.",
	"review":        "사례를 쓴 사람과 검토한 사람입니다.",
	"affected":      "장애가 해당하는 제품과 버전을 출처에 적힌 대로 적습니다. 출처에 없으면 빼놓습니다.",
	"withdrawn":     "사례를 철회하면 적습니다. 페이지와 API 레코드는 같은 주소에 남아 철회 이유를 밝히고, 목록, 주제, 검색, 관련 사례에서는 빠집니다.",
	"docs":          "더 읽을 문서의 링크입니다.",
	"updated_at":    "사례를 마지막으로 고친 때이며, RFC 3339 형식입니다.",
	"incidentlib":   "사례 파일에는 쓰지 않습니다. 빌드가 cases.jsonl의 줄마다 붙이며, 라이브러리 버전과 데이터의 라이선스를 적습니다.",
	"url":           "사례가 다른 곳에도 실려 있으면 그 주소입니다(시드 사례는 원래 라이브러리의 앱 주소를 적습니다). 사례 페이지에 \"다른 곳에도 공개됨\"으로 나옵니다. 여기서 쓴 사례라면 빼놓습니다. 사례의 주소는 base_url과 ID로 정해집니다.",
}

// koSubfieldDocs describes the members of the objects above that are not
// a text's en and ko, by "field.member".
var koSubfieldDocs = map[string]string{
	"impact.scope":                "작동하지 않은 대상입니다. 그냥 문자열이면 영어로만 읽습니다." + koBoth,
	"impact.users":                "영향을 받은 사람입니다. 그냥 문자열이면 영어로만 읽습니다." + koBoth,
	"impact.region":               "us-east-1이나 US 같은 식별자로 적은 지역이며, 번역하지 않습니다.",
	"timeline.detected_after":     "탐지 시간: 영향이 시작된 때부터 누구든 처음 알아챌 때까지이며, 모르면 null입니다.",
	"timeline.mitigated_after":    "완화 시간: 영향이 시작된 때부터 영향이 줄거나 우회책이 마련될 때까지이며, 모르면 null이거나 빼놓습니다.",
	"timeline.resolved_after":     "해결 시간: 영향이 시작된 때부터 끝날 때까지이며, 모르면 null입니다.",
	"timeline.started_at":         "출처가 밝힌, 영향이 시작된 시각입니다.",
	"timeline.detected_at":        "영향을 처음 알아챈 시각입니다.",
	"timeline.mitigated_at":       "영향이 줄거나 우회책이 마련된 시각입니다.",
	"timeline.resolved_at":        "영향이 끝난 시각입니다.",
	"review.written_by":           "사례를 쓴 사람입니다.",
	"review.reviewed_at":          "YYYY-MM-DD 형식의 검토 날짜이며, 없으면 null입니다.",
	"review.reviewed_by":          "검토한 사람이며, 없으면 null입니다.",
	"withdrawn.date":              "철회한 날짜이며, YYYY-MM-DD 형식입니다.",
	"withdrawn.reason":            "철회한 이유입니다." + koBoth,
	"withdrawn.replaced_by":       "이 사례를 대신하는 사례의 ID이며, 없으면 비어 있습니다.",
	"incidentlib.library_version": "라이브러리의 버전입니다.",
	"incidentlib.license":         "라이선스 이름이며, 없으면 비어 있습니다.",
	"incidentlib.license_url":     "라이선스 전문의 주소이며, 없으면 비어 있습니다.",
}

// koSubfieldDoc describes the member m of the field f.
func koSubfieldDoc(f, m string) string {
	if d, ok := koSubfieldDocs[f+"."+m]; ok {
		return d
	}
	return koBilingual[m]
}

// koColumnDocs describes the columns of cases.csv that are not a facet's.
var koColumnDocs = map[string]string{
	"id":                  "사례의 고정 ID입니다.",
	"org":                 "장애를 겪은 조직입니다.",
	"org_slug":            "조직의 슬러그입니다.",
	"date":                "YYYY-MM-DD, YYYY-MM, YYYY 중 하나이며, 출처에 날짜가 없으면 비어 있습니다.",
	"date_kind":           "날짜가 무엇의 날짜인지 나타냅니다. incident(장애 발생일)나 published(공개일)입니다.",
	"title_en":            "영어 제목입니다.",
	"title_ko":            "한국어 제목입니다.",
	"summary_en":          "영어 요약이며, 문단은 빈 줄로 나뉩니다.",
	"summary_ko":          "한국어 요약입니다.",
	"minutes_to_detect":   "영향이 시작된 때부터 탐지까지 걸린 시간(분)이며, 모르면 비어 있습니다.",
	"minutes_to_mitigate": "완화까지 걸린 시간(분)이며, 모르면 비어 있습니다.",
	"minutes_to_resolve":  "종료까지 걸린 시간(분)이며, 모르면 비어 있습니다.",
	"region":              "식별자로 적은 지역입니다.",
	"sources":             "출처 주소를 공백으로 이어 적습니다.",
	"related":             "편집자가 연결한 사례 ID를 \";\"로 이어 적습니다.",
	"recurrence_of":       "이 사례가 되풀이한 이전 사례의 ID입니다.",
	"updated_at":          "사례를 마지막으로 고친 때이며, RFC 3339 형식입니다.",
	"withdrawn":           "사례를 철회한 날짜이며, 목록에 있는 사례는 비어 있습니다.",
	"withdrawn_reason_en": "영어로 적은 철회 이유입니다.",
	"withdrawn_reason_ko": "한국어로 적은 철회 이유입니다.",
	"replaced_by":         "철회된 사례를 대신하는 사례 ID를 \";\"로 이어 적습니다.",
	"page_en":             "사례의 영어 페이지입니다.",
	"page_ko":             "사례의 한국어 페이지입니다.",
	"library_version":     "파일을 만든 라이브러리의 버전입니다.",
	"license":             "데이터의 라이선스입니다.",
}

// koColumnDoc describes the column name of cases.csv: a facet's column
// by its field, as csvColumns does in English.
func koColumnDoc(name string) string {
	if d, ok := koColumnDocs[name]; ok {
		return d
	}
	return "vocab.json의 " + name + " 용어 ID를 \";\"로 이어 적습니다."
}
