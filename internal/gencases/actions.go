package gencases

import "math/rand/v2"

// Korean writes with one eojeol what English spreads over a word and its
// function words: a noun carries its particle ("설정을", "설정까지",
// "설정에서도"), a verb its ending ("검증했다", "검증했고", "검증한 뒤").
// So the library's Korean has far more distinct words than its English for
// the same story (about three times as many at 1,000 cases, fitted on
// content/; see calibrate_test.go). The action sentences below carry that:
// things done to things, where the English names the act in the past tense
// and the Korean conjugates the act's 하다 verb and varies the particles the
// way a writer does, from sentence to sentence.

// act is a verb in both languages: the English past tense and the noun
// stem of the Korean 하다 verb ("validated", 검증 → 검증했다).
type act struct{ en, ko string }

var acts = []act{
	{"validated", "검증"}, {"restarted", "재시작"}, {"deployed", "배포"}, {"rolled back", "롤백"},
	{"checked", "점검"}, {"investigated", "조사"}, {"analysed", "분석"}, {"recovered", "복구"},
	{"switched over", "전환"}, {"blocked", "차단"}, {"applied", "적용"}, {"configured", "설정"},
	{"changed", "변경"}, {"renewed", "갱신"}, {"deleted", "삭제"}, {"created", "생성"},
	{"allocated", "할당"}, {"released", "해제"}, {"reconnected", "재연결"}, {"requested", "요청"},
	{"processed", "처리"}, {"stored", "저장"}, {"queried", "조회"}, {"recorded", "기록"},
	{"monitored", "모니터링"}, {"measured", "측정"}, {"compared", "비교"}, {"reviewed", "검토"},
	{"approved", "승인"}, {"rejected", "거부"}, {"ran", "실행"}, {"stopped", "중단"},
	{"resumed", "재개"}, {"reported", "보고"}, {"shared", "공유"}, {"announced", "공지"},
	{"moved", "이동"}, {"replicated", "복제"}, {"synchronised", "동기화"}, {"compressed", "압축"},
	{"encrypted", "암호화"}, {"authenticated", "인증"}, {"scheduled", "예약"}, {"cancelled", "취소"},
	{"terminated", "종료"}, {"prepared", "준비"}, {"cleaned up", "정리"}, {"removed", "제거"},
	{"added", "추가"}, {"fixed", "수정"}, {"wrote", "작성"}, {"found", "발견"},
	{"identified", "파악"}, {"traced", "추적"}, {"reproduced", "재현"}, {"tested", "테스트"},
	{"integrated", "연동"}, {"called", "호출"}, {"returned", "반환"}, {"sent", "전송"},
	{"received", "수신"}, {"subscribed to", "구독"}, {"published", "발행"}, {"scaled down", "축소"},
	{"scaled out", "확장"}, {"merged", "병합"}, {"split", "분할"}, {"isolated", "격리"},
	{"restored", "복원"}, {"backed up", "백업"}, {"migrated", "이관"}, {"upgraded", "업그레이드"},
	{"patched", "패치"}, {"drained", "드레인"}, {"cordoned", "cordon"}, {"rebuilt", "재빌드"},
	{"reindexed", "재색인"}, {"rotated", "교체"}, {"throttled", "스로틀링"}, {"retried", "재시도"},
	{"escalated", "에스컬레이션"}, {"paged", "호출"}, {"documented", "문서화"}, {"automated", "자동화"},
	{"simplified", "단순화"}, {"optimised", "최적화"}, {"rebalanced", "재분배"}, {"provisioned", "프로비저닝"},
	{"decommissioned", "폐기"}, {"verified", "확인"}, {"diagnosed", "진단"}, {"estimated", "추정"},
	{"recalculated", "재계산"}, {"collected", "수집"}, {"filtered", "필터링"}, {"parsed", "파싱"},
	{"cached", "캐싱"}, {"invalidated", "무효화"}, {"reloaded", "리로드"}, {"flushed", "플러시"},
	{"compacted", "컴팩션"}, {"evicted", "축출"}, {"sampled", "샘플링"}, {"tuned", "튜닝"},
	{"benchmarked", "벤치마크"}, {"debugged", "디버깅"}, {"disabled", "비활성화"}, {"enabled", "활성화"},
	{"initialised", "초기화"}, {"reset", "재설정"}, {"reconfigured", "재구성"}, {"redeployed", "재배포"},
	{"serialised", "직렬화"}, {"pinned", "고정"}, {"mirrored", "미러링"}, {"federated", "연합"},
	{"sharded", "샤딩"}, {"signed", "서명"}, {"audited", "감사"}, {"load-tested", "부하 시험"},
}

// objects are what acts are done to.
var objects = []word{
	w("configuration", "설정"), w("certificate", "인증서"), w("token", "토큰"), w("query", "쿼리"),
	w("index", "인덱스"), w("table", "테이블"), w("record", "레코드"), w("cache", "캐시"),
	w("session", "세션"), w("queue", "큐"), w("topic", "토픽"), w("partition", "파티션"),
	w("shard", "샤드"), w("replica", "복제본"), w("snapshot", "스냅숏"), w("backup", "백업"),
	w("log", "로그"), w("metric", "지표"), w("alert", "경보"), w("dashboard", "대시보드"),
	w("threshold", "임곗값"), w("timeout", "타임아웃"), w("request", "요청"), w("response", "응답"),
	w("connection", "연결"), w("socket", "소켓"), w("port", "포트"), w("route", "라우트"),
	w("path", "경로"), w("header", "헤더"), w("cookie", "쿠키"), w("payload", "페이로드"),
	w("schema", "스키마"), w("migration", "마이그레이션"), w("transaction", "트랜잭션"), w("lock", "잠금"),
	w("thread", "스레드"), w("process", "프로세스"), w("container", "컨테이너"), w("image", "이미지"),
	w("registry", "레지스트리"), w("manifest", "매니페스트"), w("chart", "차트"), w("template", "템플릿"),
	w("variable", "변수"), w("flag", "플래그"), w("version", "버전"), w("release", "릴리스"),
	w("patch", "패치"), w("commit", "커밋"), w("branch", "브랜치"), w("pipeline", "파이프라인"),
	w("job", "잡"), w("worker", "워커"), w("scheduler", "스케줄러"), w("node", "노드"),
	w("pod", "파드"), w("cluster", "클러스터"), w("namespace", "네임스페이스"), w("ingress", "인그레스"),
	w("service", "서비스"), w("secret", "시크릿"), w("volume", "볼륨"), w("disk", "디스크"),
	w("file system", "파일시스템"), w("memory", "메모리"), w("heap", "힙"), w("stack", "스택"),
	w("buffer", "버퍼"), w("pool", "풀"), w("resolver", "리졸버"), w("proxy", "프록시"),
	w("gateway", "게이트웨이"), w("firewall", "방화벽"), w("rule", "규칙"), w("policy", "정책"),
	w("permission", "권한"), w("role", "역할"), w("account", "계정"), w("key", "키"),
	w("password", "비밀번호"), w("quota", "할당량"), w("limit", "한도"), w("capacity", "용량"),
	w("throughput", "처리량"), w("latency", "지연"), w("error rate", "오류율"), w("availability", "가용성"),
	w("endpoint", "엔드포인트"), w("client", "클라이언트"), w("server", "서버"), w("host", "호스트"),
	w("instance", "인스턴스"), w("zone", "영역"), w("data centre", "데이터센터"), w("network", "네트워크"),
	w("link", "링크"), w("circuit", "회선"), w("packet", "패킷"), w("router", "라우터"),
	w("switch", "스위치"), w("backbone", "백본"), w("origin", "오리진"), w("edge", "엣지"),
	w("notification", "알림"), w("pager", "호출기"), w("rota", "당번표"), w("document", "문서"),
	w("ticket", "티켓"), w("report", "보고서"), w("schedule", "일정"), w("checklist", "체크리스트"),
	w("procedure", "절차"), w("rollout", "롤아웃"), w("canary", "카나리"), w("health check", "헬스체크"),
	w("probe", "프로브"), w("sidecar", "사이드카"), w("agent", "에이전트"), w("collector", "수집기"),
	w("exporter", "익스포터"), w("webhook", "웹훅"), w("callback", "콜백"), w("event", "이벤트"),
	w("message", "메시지"), w("consumer", "컨슈머"), w("producer", "프로듀서"), w("offset", "오프셋"),
	w("checksum", "체크섬"), w("signature", "서명"), w("keyring", "키링"), w("daemon set", "데몬셋"),
	w("deployment", "디플로이먼트"), w("stateful set", "스테이트풀셋"), w("load balancer", "로드밸런서"),
	w("replica set", "레플리카셋"), w("kernel", "커널"), w("driver", "드라이버"), w("firmware", "펌웨어"),
}

// The Zipf laws acts and objects are drawn by: a few are in most cases.
var (
	actZipf    = newZipf(len(acts), 0.8, 10)
	objectZipf = newZipf(len(objects), 0.8, 10)
	// Compounds draw both parts more evenly: most pairs are rare.
	compoundZipf = newZipf(len(objects), 0.6, 40)
)

// variants are the forms a writer puts in a particle's place: the same
// role, with the topic, "also" or "even" marker ("설정을" → "설정도",
// "설정까지"; "팀이" → "팀은"). A template asks for them with a tilde,
// {ob:~을}; the first form is the most common.
var variants = map[string][]string{
	"을":  {"을", "을", "도", "까지"},
	"이":  {"이", "이", "은"},
	"은":  {"은", "은", "이"},
	"에서": {"에서", "에서", "에서는", "에서도", "에서만"},
	"에":  {"에", "에", "에는", "에도", "에만"},
	"으로": {"으로", "으로", "으로는", "으로도"},
	"과":  {"과", "과", "과도", "과는"},
	"의":  {"의"},
}

// endings conjugate a 하다 verb by the role its clause plays: "다" ends
// the sentence, "고" joins the next clause, "ㄴ" describes the noun after
// it, "뒤" says what came first. The first form is the most common.
var endings = map[string][]string{
	"다": {"했다", "했다", "했다", "했었다", "해 두었다", "해 놓았다", "하고 있었다", "하기 시작했다"},
	"고": {"했고", "했고", "하고", "했으며", "한 뒤", "하고 나서", "해서"},
	"ㄴ": {"한", "한", "했던", "해 둔", "해 놓은"},
	"뒤": {"한 뒤", "한 뒤", "하고 나서", "한 다음", "하자"},
	// What an action item promises.
	"한다": {"한다", "한다", "하도록 한다", "해 둔다", "하기로 한다", "하게 한다"},
}

// vary picks a form of particle for the sentence being written.
func (s *slots) vary(particle string) string {
	v, ok := variants[particle]
	if !ok || s.rnd == nil {
		return particle
	}
	return v[s.rnd.IntN(len(v))]
}

// participles of the acts whose past tense is not their participle.
var participles = map[string]string{"ran": "run", "wrote": "written"}

// verb writes the sentence's act: the English past tense (the participle
// for {vbp}, with a capital for {Vb}), or the Korean stem with an ending
// of the class given.
func (s *slots) verb(ko bool, name, class string, upper bool) string {
	if !ko {
		en := s.vb.en
		if p, ok := participles[en]; ok && name == "vbp" {
			en = p
		}
		if upper {
			en = capitalize(en)
		}
		return en
	}
	e, ok := endings[class]
	if !ok {
		e = endings["다"]
	}
	k := 0
	if s.rnd != nil {
		k = s.rnd.IntN(len(e))
	}
	return s.vb.ko + e[k]
}

// drawAction draws the act and objects of a sentence.
func drawAction(s *slots, r *rand.Rand) {
	s.vb = acts[actZipf.draw(r)]
	s.ob = objects[objectZipf.draw(r)]
	for s.ob2 = objects[objectZipf.draw(r)]; s.ob2 == s.ob; s.ob2 = objects[objectZipf.draw(r)] {
	}
	s.cp, s.cp2 = compound(r), compound(r)
	// The filler sentences' things, half the time, are compounds too.
	if r.IntN(2) == 0 {
		s.x = compound(r)
	}
	if r.IntN(2) == 0 {
		s.y = compound(r)
	}
}

// compound joins two or three objects into one noun, as Korean technical
// writing does ("캐시서버", "인증서토큰"; 한글 맞춤법 제50항 lets terms be
// written together); English keeps the spaces.
func compound(r *rand.Rand) word {
	a, b := objects[compoundZipf.draw(r)], objects[compoundZipf.draw(r)]
	c := w(a.en+" "+b.en, a.ko+b.ko)
	switch r.IntN(4) {
	case 0:
		x := objects[compoundZipf.draw(r)]
		c = w(x.en+" "+c.en, x.ko+c.ko)
	case 1:
		// A name from the lexicon in front: "quorvel cache", 쿼르벨캐시.
		x := drawLex(r)
		c = w(x.en+" "+a.en, x.ko+a.ko)
	}
	return c
}

// actions are padding sentences built around an act. Like fillers they read
// well in any long field.
var actions = []pair{
	{"The {team} {vb} the {cp} of {lx} at {t3} UTC.", "{team:~은} {t3} UTC에 {lx:의} {cp:~을} {vb:다}."},
	{"Engineers {vb} the {cp} in {lx} and then turned to the {cp2}.", "엔지니어들은 {lx:~에서} {cp:~을} {vb:고} {cp2:으로} 눈을 돌렸다."},
	{"The {cp} that the {team} {vb} on {date} caused the trouble.", "{date}에 {team:이} {vb:ㄴ} {cp:이} 문제를 일으켰다."},
	{"{Lx} {vb} its {cp} every {n} minutes, which hid the state of the {cp2}.", "{lx:~은} {n}분마다 {cp:~을} {vb:고}, 그 때문에 {cp2:의} 상태가 가려졌다."},
	{"After the {team} {vb} the {cp}, the {lx} {cp2} recovered within {n} minutes.", "{team:이} {cp:~을} {vb:뒤} {n}분 안에 {lx} {cp2:~이} 회복했다."},
	{"The on-call engineer {vb} the {cp} on {host} by hand.", "당번 엔지니어가 {host:~에서} {cp:~을} 손으로 {vb:다}."},
	{"Someone had {vb} the {cp} of {prod} without telling the {team}.", "누군가 {team:에} 알리지 않고 {prod:의} {cp:~을} {vb:다}."},
	{"The {cp} {vb} by {lx2} did not match the {cp2} in {region}.", "{lx2:이} {vb:ㄴ} {cp:~은} {region:의} {cp2:과} 맞지 않았다."},
	{"The review asked why nobody had {vb} the {cp} of the {comp} before the change.", "사후 검토는 변경 전에 {comp:의} {cp:~을} {vb:ㄴ} 사람이 왜 없었는지 물었다."},
	{"The {team} {vb} the {cp} in {ns} and watched the {cp2} for {n} minutes.", "{team:~은} {ns} 네임스페이스에서 {cp:~을} {vb:고} {n}분 동안 {cp2:~을} 지켜봤다."},
	{"A script {vb} the {cp} of every {lx} {cp2} in {region}.", "스크립트 하나가 {region:의} 모든 {lx} {cp2:에서} {cp:~을} {vb:다}."},
	{"{Prod} {vb} the {cp} again, and the {cp2} filled up within {n} seconds.", "{prod:~이} {cp:~을} 다시 {vb:고}, {n}초 만에 {cp2:~이} 가득 찼다."},
	{"The {cp} had been {vb} in staging but not in {region}.", "{cp:~은} 스테이징에서는 {vb:ㄴ} 상태였지만 {region:에서는} 아니었다."},
	{"Once the {team} {vb} the {cp}, the {lx} alerts stopped.", "{team:이} {cp:~을} {vb:뒤} {lx} 경보가 멈췄다."},
	{"Commit {commit} {vb} the {cp} of the {lx2} service.", "커밋 {commit:이} {lx2} 서비스의 {cp:~을} {vb:다}."},
	{"The {team} {vb} the {cp} and the {cp2} of {lx} together.", "{team:~은} {lx:의} {cp:과} {cp2:~을} 함께 {vb:다}."},
}

// actionRemediations and actionItems are steps and follow-ups built around an
// act, added to remediations and actionItems.
var (
	actionRemediations = []pair{
		{"{Vb} the {cp} of {lx} by hand", "{lx:의} {cp:~을} 손으로 {vb:다}."},
		{"{Vb} the {cp} on {host}", "{host:~에서} {cp:~을} {vb:다}."},
		{"{Vb} the {cp} and the {cp2} of {prod}", "{prod:의} {cp:과} {cp2:~을} {vb:다}."},
	}
	actionFollowUps = []pair{
		{"Have the {cp} of {lx} {vbp} before every release", "배포 전마다 {lx:의} {cp:~을} {vb:한다}."},
		{"Have the {cp} {vbp} automatically when the {cp2} changes", "{cp2:~이} 바뀌면 {cp:~을} 자동으로 {vb:한다}."},
		{"Make sure the {cp} of the {comp} is {vbp} every quarter", "분기마다 {comp:의} {cp:~을} {vb:한다}."},
		{"Get the {cp} in {region} {vbp} the same way as elsewhere", "{region:의} {cp:도} 다른 곳과 같은 방식으로 {vb:한다}."},
		{"Have the {team} own the {cp} of {lx} and get it {vbp} every month", "{team:이} {lx:의} {cp:~을} 맡아 매달 {vb:한다}."},
		{"Have the {cp} of {prod} {vbp} in staging first", "{prod:의} {cp:~은} 스테이징에서 먼저 {vb:한다}."},
	}
)
