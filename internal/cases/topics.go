package cases

import (
	"errors"
	"io/fs"
	"strings"

	"incidentlib/internal/diag"
)

// loadTopics reads content/topics/<facet>/<term>.<lang>.md.
func loadTopics(fsys fs.FS, lib *Library, list *diag.List) {
	facets := readDir(fsys, topicsDir, list) // topic introductions are optional
	for _, f := range facets {
		if strings.HasPrefix(f.Name(), ".") {
			hidden(topicsDir+"/"+f.Name(), list)
			continue
		}
		dir, err := isDir(fsys, topicsDir+"/"+f.Name(), f)
		if err != nil || !dir {
			if err == nil {
				err = errors.New("a topic introduction goes in topics/<facet>/, not in topics/")
			}
			list.Errorf(topicsDir+"/"+f.Name(), 0, 0, "", "%v", unwrapPathError(err))
			continue
		}
		facet := FacetByName(f.Name())
		if facet == nil || !facet.Controlled {
			list.Errorf(topicsDir+"/"+f.Name(), 0, 0, "", "unknown facet %q: topic introductions live in one of %s%s", f.Name(), strings.Join(vocabFacets(), ", "), DidYouMean(f.Name(), vocabFacets()))
			continue
		}
		entries := readDir(fsys, topicsDir+"/"+f.Name(), list)
		for _, e := range entries {
			name := topicsDir + "/" + f.Name() + "/" + e.Name()
			if strings.HasPrefix(e.Name(), ".") {
				hidden(name, list)
				continue
			}
			if dir, err := isDir(fsys, name, e); err != nil || dir {
				notAFile(name, topicsDir+"/"+f.Name()+"/", err, list)
				continue
			}
			term, lang, ok := splitLangFile(e.Name())
			if !ok {
				list.Errorf(name, 0, 0, "", "a topic introduction is named <term>.<en|ko>.md")
				continue
			}
			if _, ok := lib.Vocab.Term(facet.Field, term); !ok && !lib.Vocab.broken {
				list.Errorf(name, 0, 0, "", "unknown %s term %q%s", f.Name(), term, lib.Vocab.suggest[facet.Field].didYouMean(term))
				continue
			}
			body, ok := readText(fsys, name, list)
			if !ok {
				continue
			}
			if lib.Topics[f.Name()] == nil {
				lib.Topics[f.Name()] = map[string]Bilingual{}
			}
			checkParticlesText(name, body, list)
			if lang == "ko" {
				checkGlossaryText(lib.Vocab.Glossary, name, body, list)
			}
			t := lib.Topics[f.Name()][term]
			setLang(&t, lang, body)
			lib.Topics[f.Name()][term] = t
		}
	}
}

func vocabFacets() []string {
	var out []string
	for _, f := range ControlledFacets() {
		out = append(out, f.Name)
	}
	return out
}
