package gencases

import (
	"math/rand/v2"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Prose is assembled from sentence templates written as English/Korean
// pairs. A template names its slots in braces: {comp} is the case's main
// component, {Sym} the first symptom's clause with a capital letter. In
// Korean a slot may carry a particle, {comp:이}, which fill attaches in the
// form the word's final sound asks for; in English {org:'s} forms the
// possessive. Both sides of a pair are filled from the same slots, so the
// two languages tell the same story.

// word is a slot value in both languages. sound is the final sound of the
// Korean reading (see finalSound) when the Korean side cannot show it, as
// with Latin organisation names; -1 means "work it out from ko".
type word struct {
	en, ko string
	sound  int8
}

func w(en, ko string) word { return word{en, ko, -1} }

// pair is one sentence template in both languages.
type pair struct{ en, ko string }

// slots holds the slot values for one case; fill looks names up here.
type slots struct {
	org, comp, comp2, sym, sym2, rc, x, y, team word
	t1, t2, t3, t4, n, pct, date, region, dur   word
	// Drawn afresh for every sentence (see lexicon.go): lexicon words, a
	// product, names of hosts, pods, namespaces and buckets, versions, an
	// address, an HTTP status, a commit and an error message.
	lx, lx2, prod, host, pod, ns, bucket word
	ver, ver2, ip, code, commit, err     word
	// An act and two things it is done to (see actions.go), and the
	// stream that picks particle and ending forms for the Korean.
	ob, ob2, cp, cp2 word
	vb               act
	rnd              *rand.Rand
}

func (s *slots) get(name string) (word, bool) {
	switch name {
	case "org":
		return s.org, true
	case "comp":
		return s.comp, true
	case "comp2":
		return s.comp2, true
	case "sym":
		return s.sym, true
	case "sym2":
		return s.sym2, true
	case "rc":
		return s.rc, true
	case "x":
		return s.x, true
	case "y":
		return s.y, true
	case "team":
		return s.team, true
	case "t1":
		return s.t1, true
	case "t2":
		return s.t2, true
	case "t3":
		return s.t3, true
	case "t4":
		return s.t4, true
	case "n":
		return s.n, true
	case "pct":
		return s.pct, true
	case "date":
		return s.date, true
	case "region":
		return s.region, true
	case "dur":
		return s.dur, true
	case "lx":
		return s.lx, true
	case "lx2":
		return s.lx2, true
	case "prod":
		return s.prod, true
	case "host":
		return s.host, true
	case "pod":
		return s.pod, true
	case "ns":
		return s.ns, true
	case "bucket":
		return s.bucket, true
	case "ver":
		return s.ver, true
	case "ver2":
		return s.ver2, true
	case "ip":
		return s.ip, true
	case "code":
		return s.code, true
	case "commit":
		return s.commit, true
	case "err":
		return s.err, true
	case "ob":
		return s.ob, true
	case "ob2":
		return s.ob2, true
	case "cp":
		return s.cp, true
	case "cp2":
		return s.cp2, true
	}
	return word{}, false
}

// fill appends tpl with its slots replaced to b. An unknown slot name is a
// bug in the tables, which the tests catch by scanning every template; at
// run time it is left in the text as written.
func fill(b *strings.Builder, tpl string, s *slots, ko bool) {
	for {
		i := strings.IndexByte(tpl, '{')
		if i < 0 {
			b.WriteString(tpl)
			return
		}
		j := strings.IndexByte(tpl[i:], '}')
		if j < 0 {
			b.WriteString(tpl)
			return
		}
		b.WriteString(tpl[:i])
		spec := tpl[i+1 : i+j]
		tpl = tpl[i+j+1:]
		name, particle, _ := strings.Cut(spec, ":")
		upper := false
		if r, size := utf8.DecodeRuneInString(name); unicode.IsUpper(r) {
			upper = true
			name = string(unicode.ToLower(r)) + name[size:]
		}
		if name == "vb" || name == "vbp" {
			b.WriteString(s.verb(ko, name, particle, upper))
			continue
		}
		if ko && strings.HasPrefix(particle, "~") {
			particle = s.vary(particle[1:])
		}
		v, ok := s.get(name)
		if !ok {
			b.WriteString("{" + spec + "}")
			continue
		}
		if ko {
			switch {
			case particle == "":
				b.WriteString(v.ko)
			case v.sound >= 0:
				b.WriteString(attach(v.ko, uint8(v.sound), particle))
			default:
				b.WriteString(josa(v.ko, particle))
			}
			continue
		}
		text := v.en
		if upper {
			r, size := utf8.DecodeRuneInString(text)
			text = string(unicode.ToUpper(r)) + text[size:]
		}
		b.WriteString(text)
		if particle == "'s" {
			if strings.HasSuffix(text, "s") {
				b.WriteString("'")
			} else {
				b.WriteString("'s")
			}
		}
	}
}

// orgPrefixes and orgSuffixes make up the fictional organisations. Each
// suffix carries the final sound of its Korean reading (클라우드 0, 넷 1,
// 모바일 2), since the name itself stays in Latin letters in Korean text.
var orgPrefixes = []string{
	"Cobalt", "Lumen", "Northwind", "Bluefin", "Quartz", "Harbor", "Kestrel", "Tidewater",
	"Ember", "Meridian", "Granite", "Saffron", "Aurora", "Pinecone", "Sparrow", "Vantage",
	"Orbit", "Copperleaf", "Driftwood", "Halcyon", "Ironbark", "Marigold", "Nimbus", "Pebble",
	"Redwood", "Solstice", "Tundra", "Willow", "Zephyr", "Bramble", "Larkspur", "Foxglove",
}

var orgSuffixes = []struct {
	name  string
	sound int8
}{
	{"Cloud", 0}, {"Pay", 0}, {"Labs", 0}, {"Bank", 0}, {"Games", 0}, {"Mart", 0}, {"Net", 1},
	{"Hub", 0}, {"Stream", 1}, {"Link", 0}, {"Station", 1}, {"Mobile", 2}, {"Market", 1},
	{"Commerce", 0}, {"Health", 0}, {"Logistics", 0}, {"Air", 0}, {"Works", 0}, {"Systems", 0},
	{"Data", 0}, {"Security", 0}, {"Studio", 0}, {"Cast", 0}, {"Post", 0}, {"Book", 1},
	{"Chat", 1}, {"Drive", 0}, {"Line", 1}, {"Shop", 1}, {"Talk", 1}, {"Map", 1}, {"Mail", 2},
	{"Travel", 2}, {"Social", 2},
}

// nouns are infrastructure words for the {x} and {y} slots of filler
// sentences, so that the text carries many different searchable terms.
var nouns = []word{
	w("connection pool", "연결 풀"), w("retry queue", "재시도 큐"), w("internal dashboard", "내부 대시보드"),
	w("feature flag", "기능 플래그"), w("canary fleet", "카나리 서버군"), w("runbook", "런북"),
	w("shard map", "샤드 맵"), w("partition leader", "파티션 리더"), w("read replica", "읽기 복제본"),
	w("leader election", "리더 선출"), w("circuit breaker", "서킷 브레이커"), w("backoff policy", "백오프 정책"),
	w("cron job", "크론 작업"), w("sidecar proxy", "사이드카 프록시"), w("control loop", "제어 루프"),
	w("status page", "상태 페이지"), w("load test", "부하 테스트"), w("config file", "설정 파일"),
	w("kernel upgrade", "커널 업그레이드"), w("storage volume", "스토리지 볼륨"), w("cache warm-up", "캐시 예열"),
	w("traffic shift", "트래픽 전환"), w("failover script", "장애 조치 스크립트"), w("admission webhook", "어드미션 웹훅"),
	w("API quota", "API 쿼터"), w("distributed lock", "분산 락"), w("thread pool", "스레드 풀"),
	w("garbage collection pause", "가비지 컬렉션 일시 정지"), w("autoscaling policy", "오토스케일링 정책"),
	w("DNS record", "DNS 레코드"), w("routing table", "라우팅 테이블"), w("certificate chain", "인증서 체인"),
	w("secret rotation", "시크릿 교체"), w("schema migration", "스키마 마이그레이션"), w("index rebuild", "인덱스 재구축"),
	w("billing pipeline", "과금 파이프라인"), w("session store", "세션 저장소"), w("write-ahead log", "선행 기록 로그"),
	w("service account", "서비스 계정"), w("deployment manifest", "배포 매니페스트"), w("node drain", "노드 드레인"),
	w("connection limit", "연결 수 제한"), w("heartbeat", "하트비트"), w("upstream timeout", "업스트림 타임아웃"),
}

var teams = []word{
	w("platform team", "플랫폼 팀"), w("network team", "네트워크 팀"), w("SRE team", "SRE 팀"),
	w("database team", "데이터베이스 팀"), w("incident commander", "장애 지휘자"), w("on-call engineer", "당번 엔지니어"),
	w("infrastructure team", "인프라 팀"), w("release team", "릴리스 팀"),
}

var regions = []word{
	w("us-east-1", "us-east-1"), w("eu-west-1", "eu-west-1"), w("ap-northeast-2", "ap-northeast-2"),
	w("us-central1", "us-central1"), w("europe-west4", "europe-west4"), w("ap-southeast-1", "ap-southeast-1"),
	w("Europe", "유럽"), w("North America", "북미"), w("Asia Pacific", "아시아 태평양"), w("Seoul", "서울"),
	w("Frankfurt", "프랑크푸르트"), w("Virginia", "버지니아"),
}

// titles open a case. They name the organisation, the component and what
// users saw, the way the library's hand-written titles do.
var titles = []pair{
	{"{org:'s} {comp} failed after {rc} and {sym}", "{org:의} {comp:이} {rc:으로} 장애를 일으켜 {sym}"},
	{"{Rc} in the {comp} took {org} down for {dur}", "{comp:의} {rc:으로} {org:이} {dur} 동안 멈췄다"},
	{"At {org}, {sym} when the {comp} broke", "{org:에서} {comp:이} 고장 나 {sym}"},
	{"{org:'s} {comp} and {comp2} went down together and {sym}", "{org:의} {comp:과} {comp2:이} 함께 멈추고 {sym}"},
	{"{Rc} at {org}: {sym} for {dur}", "{org:의} {rc}: {dur} 동안 {sym}"},
	{"{org} lost its {comp} in {region} and {sym}", "{org:이} {region} 리전의 {comp:을} 잃고 {sym}"},
}

// openings start the summary with how the system was built.
var openings = []pair{
	{"{org} runs its {comp} in {region} in front of most of its services, and the {comp2} sits right behind it.",
		"{org:은} {region:에} {comp:을} 두고 대부분의 서비스를 그 뒤에 놓았으며, {comp2:가} 바로 뒤에 있다."},
	{"Most of {org:'s} traffic passes through the {comp} before it reaches the application servers.",
		"{org:의} 트래픽 대부분은 애플리케이션 서버에 닿기 전에 {comp:을} 거친다."},
	{"{org} had moved the {comp} onto a shared platform a few months earlier, together with the {comp2}.",
		"{org:은} 몇 달 전에 {comp:을} {comp2:와} 함께 공용 플랫폼으로 옮겼다."},
	{"The {comp} at {org} is operated by the {team} and serves every product the company sells.",
		"{org:의} {comp:은} {team:이} 운영하며, 회사가 파는 모든 제품이 여기에 기댄다."},
	{"On {date} {org} ran into {rc} in the {comp}, a part of the system that few people thought about day to day.",
		"{date} {org:은} 평소 눈여겨보는 사람이 적던 {comp:에서} {rc:을} 겪었다."},
	{"{org:'s} services depend on the {comp} to find and reach each other, and on the {comp2} to keep their state.",
		"{org:의} 서비스들은 서로를 찾고 연결하는 데 {comp:을}, 상태를 지키는 데 {comp2:를} 쓴다."},
}

// spreads tell how the failure grew.
var spreads = []pair{
	{"Within {n} minutes {sym2}, and the {team} opened an incident.", "{n}분 안에 {sym2}. {team:이} 장애를 선언했다."},
	{"The failure did not stay in the {comp}: {sym2}.", "장애는 {comp:에서} 그치지 않았다. {sym2}."},
	{"As load moved to the remaining capacity, {sym2}.", "부하가 남은 용량으로 몰리자 {sym2}."},
	{"Because the {comp2} depends on the {comp}, {sym2}.", "{comp2:가} {comp:에} 기대고 있어서 {sym2}."},
	{"By {t2} UTC {sym2}, and support tickets began to arrive.", "{t2} UTC 무렵에는 {sym2}. 고객 문의도 들어오기 시작했다."},
}

// recoveries close the summary with how service came back.
var recoveries = []pair{
	{"At {t3} UTC the team rolled back the last change to the {comp}, and by {t4} UTC error rates were back to normal.",
		"{t3} UTC에 팀이 {comp:의} 마지막 변경을 되돌렸고, {t4} UTC에는 오류율이 평소로 돌아왔다."},
	{"Engineers moved traffic away from the {comp} at {t3} UTC and the service recovered fully at {t4} UTC, {dur} after the start.",
		"엔지니어들이 {t3} UTC에 트래픽을 {comp:에서} 빼냈고, 서비스는 시작 {dur} 뒤인 {t4} UTC에 완전히 회복했다."},
	{"Added capacity came online at {t3} UTC, which took the pressure off, and the incident was closed at {t4} UTC.",
		"{t3} UTC에 늘린 용량이 올라오면서 부하가 줄었고, {t4} UTC에 장애가 종료됐다."},
	{"The {team} restarted the {comp} in stages from {t3} UTC; the last region recovered at {t4} UTC.",
		"{team:이} {t3} UTC부터 {comp:을} 단계적으로 다시 시작했고, 마지막 리전이 {t4} UTC에 회복했다."},
	{"Once the faulty {x} was disabled at {t3} UTC the backlog drained, and normal service returned at {t4} UTC.",
		"{t3} UTC에 문제의 {x:를} 끄자 밀린 작업이 빠졌고, {t4} UTC에 서비스가 정상으로 돌아왔다."},
}

// windows open the symptoms text with when and who.
var windows = []pair{
	{"Between {t1} and {t4} UTC on {date}, {sym}.", "{date} {t1} UTC부터 {t4} UTC까지 {sym}."},
	{"From {t1} UTC on {date} customers of {org} noticed that {sym}.", "{date} {t1} UTC부터 {org} 고객들은 이상을 느꼈다. {sym}."},
	{"For {dur} on {date}, {sym}, mostly in {region}.", "{date}에 {dur} 동안 주로 {region:에서} {sym}."},
	{"The first sign came at {t1} UTC on {date}, when {sym}.", "첫 징후는 {date} {t1} UTC에 나타났다. {sym}."},
}

// symptomLines describe one more symptom in the symptoms text.
var symptomLines = []pair{
	{"Soon after, {sym2}.", "곧이어 {sym2}."},
	{"At {t2} UTC {sym2}.", "{t2} UTC에는 {sym2}."},
	{"In {region} {sym2}, while other regions saw only slower responses.", "{region:에서는} {sym2}. 다른 리전은 응답이 느려지는 데 그쳤다."},
	{"Customers who depended on the {comp2} saw it worst: {sym2}.", "{comp2:에} 기대는 고객이 가장 크게 영향을 받았다. {sym2}."},
}

// detections describe how the incident was noticed.
var detections = []pair{
	{"Automated monitoring paged the {team} at {t2} UTC, when the error rate of the {comp} crossed its alert threshold.",
		"{t2} UTC에 {comp:의} 오류율이 경보 기준을 넘자 자동 모니터링이 {team:을} 호출했다."},
	{"The first report came from customers through support at {t2} UTC; internal alerts fired only later.",
		"첫 신고는 {t2} UTC에 고객 지원 창구로 들어왔고, 내부 경보는 그 뒤에야 울렸다."},
	{"A synthetic check against the {comp} failed at {t2} UTC and opened a high-priority alert.",
		"{t2} UTC에 {comp:을} 겨냥한 합성 점검이 실패해 우선순위 높은 경보가 열렸다."},
	{"An engineer watching the rollout noticed the rising latency of the {comp} at {t2} UTC and stopped the deployment.",
		"배포를 지켜보던 엔지니어가 {t2} UTC에 {comp:의} 지연이 느는 것을 보고 배포를 멈췄다."},
	{"Alerts on the {x} fired at {t2} UTC, but it took another {n} minutes to connect them to the {comp}.",
		"{t2} UTC에 {x:에} 걸린 경보가 울렸지만, 이를 {comp:와} 연결 짓는 데 {n}분이 더 걸렸다."},
	{"The {team} learned of the problem at {t2} UTC from an internal dashboard that showed requests failing.",
		"{team:은} {t2} UTC에 요청 실패를 보여 주는 내부 대시보드로 문제를 알았다."},
}

// remediations are steps taken during the incident.
var remediations = []pair{
	{"Rolled back the most recent change to the {comp}", "{comp:의} 가장 최근 변경을 되돌렸다."},
	{"Shifted traffic away from {region} to healthy regions", "트래픽을 {region:에서} 정상 리전으로 옮겼다."},
	{"Added capacity to the {comp} by hand", "{comp:에} 용량을 손으로 늘렸다."},
	{"Disabled the {x} that was making the failure worse", "장애를 키우던 {x:를} 껐다."},
	{"Restarted the instances of the {comp} one zone at a time", "{comp:의} 인스턴스를 영역별로 하나씩 다시 시작했다."},
	{"Paused the deployment pipeline so that no further changes went out", "더 이상 변경이 나가지 않도록 배포 파이프라인을 멈췄다."},
	{"Failed the {comp2} over to its standby", "{comp2:를} 대기 중인 예비 시스템으로 넘겼다."},
	{"Raised the connection limit of the {comp} temporarily", "{comp:의} 연결 수 제한을 잠시 올렸다."},
	{"Replayed the queued messages once the {comp} was healthy again", "{comp:이} 정상으로 돌아온 뒤 큐에 쌓인 메시지를 다시 처리했다."},
	{"Renewed and redeployed the certificates of the {comp}", "{comp:의} 인증서를 갱신해 다시 배포했다."},
	{"Blocked the abusive traffic at the edge", "악성 트래픽을 엣지에서 막았다."},
	{"Restored the affected data from the last good snapshot", "영향받은 데이터를 마지막 정상 스냅숏에서 복원했다."},
}

// actionItems are follow-ups promised after the incident.
var actionItems = []pair{
	{"Add an alert on the error rate of the {comp}", "{comp:의} 오류율에 경보를 단다."},
	{"Roll out changes to the {comp} region by region, with a pause between regions", "{comp:의} 변경은 리전마다 쉬는 시간을 두고 차례로 배포한다."},
	{"Add a canary stage for the {comp} that takes {pct}% of traffic for an hour", "{comp:에} 트래픽의 {pct}%를 한 시간 동안 받는 카나리 단계를 더한다."},
	{"Validate configuration for the {comp} before it is pushed", "{comp:의} 설정은 배포 전에 검증한다."},
	{"Add exponential backoff with jitter to every client of the {comp}", "{comp:을} 부르는 모든 클라이언트에 지터를 넣은 지수 백오프를 적용한다."},
	{"Keep {pct}% spare capacity in the {comp} at peak", "최대 부하 때도 {comp:에} {pct}%의 여유 용량을 둔다."},
	{"Write a runbook for failing over the {comp2}", "{comp2:의} 장애 조치 런북을 쓴다."},
	{"Rehearse failover of the {comp} every quarter", "{comp:의} 장애 조치를 분기마다 연습한다."},
	{"Update the status page automatically when a major alert fires", "큰 경보가 울리면 상태 페이지가 자동으로 갱신되도록 한다."},
	{"Move the incident tooling off the platform it is meant to repair", "장애 대응 도구를 그 도구가 고쳐야 할 플랫폼 밖으로 옮긴다."},
	{"Add load tests that reproduce {n} times the usual peak", "평소 최대치의 {n}배를 재현하는 부하 테스트를 더한다."},
	{"Set timeouts on calls to the {comp} shorter than the callers' deadlines", "{comp:을} 부르는 호출의 타임아웃을 호출자의 마감 시간보다 짧게 잡는다."},
	{"Limit how fast a single client can call the {comp}", "클라이언트 하나가 {comp:을} 부를 수 있는 속도를 제한한다."},
	{"Split the {comp} into cells so that one failure reaches fewer customers", "장애 하나가 닿는 고객 수를 줄이도록 {comp:을} 셀 단위로 나눈다."},
	{"Monitor certificate expiry for every endpoint of the {comp}", "{comp:의} 모든 엔드포인트에서 인증서 만료를 감시한다."},
	{"Record every change to the {x} in one place that on-call engineers can search", "{x:의} 모든 변경을 당번 엔지니어가 검색할 수 있는 한곳에 기록한다."},
	{"Make the {comp2} keep serving cached data when the {comp} is unavailable", "{comp:을} 쓸 수 없을 때 {comp2:가} 캐시된 데이터로 계속 응답하게 한다."},
	{"Review the ownership of the {comp} and name one owning team", "{comp:의} 책임을 다시 정해 맡을 팀 하나를 정한다."},
	{"Add a test for the failure path of the {x}", "{x:의} 실패 경로를 시험하는 테스트를 더한다."},
	{"Alert on the saturation of the {x}, not only on its averages", "{x:의} 평균만이 아니라 포화 정도에도 경보를 단다."},
	{"Automate the rollback of the {comp} so that it takes minutes instead of an hour", "{comp:의} 롤백을 자동화해 한 시간이 아니라 몇 분 안에 끝나게 한다."},
	{"Run a chaos experiment that takes down the {comp2} in staging every month", "매달 스테이징에서 {comp2:를} 내리는 카오스 실험을 한다."},
}

// lessons are general conclusions, used with the contributing factors.
var lessons = []pair{
	{"The team concluded that earlier detection would have kept the incident small.", "팀은 더 일찍 감지했다면 장애를 작게 막을 수 있었다고 결론지었다."},
	{"Protections that work for one instance can act against the fleet when many instances fail together.", "인스턴스 하나에는 통하는 보호 장치가 여러 인스턴스가 함께 실패할 때는 오히려 전체를 해칠 수 있다."},
	{"Changes to shared infrastructure such as the {comp} deserve the same care as application releases.", "{comp} 같은 공용 인프라의 변경도 애플리케이션 배포만큼 조심스럽게 다뤄야 한다."},
	{"A dependency that nobody has written down is a dependency that nobody will fail over.", "아무도 적어 두지 않은 의존성은 아무도 장애 조치를 준비하지 않는 의존성이다."},
	{"Clear, early communication mattered to customers as much as the fix itself.", "고객에게는 복구 자체만큼이나 이르고 분명한 소통이 중요했다."},
	{"Rollback must be faster than diagnosis, so that service comes back before the cause is understood.", "원인을 이해하기 전에 서비스를 되살리려면 롤백이 진단보다 빨라야 한다."},
	{"The {comp} had been reliable for years, and that record hid how much depended on it.", "{comp:은} 몇 년 동안 문제없이 돌았고, 그 기록이 얼마나 많은 것이 여기에 기대는지를 가렸다."},
	{"Limits and timeouts are part of the design and should be reviewed with it.", "제한값과 타임아웃도 설계의 일부이므로 설계와 함께 검토해야 한다."},
}

// fillers add detail to any long field. They are chosen at random until a
// case reaches its target size, so they read well in any paragraph.
var fillers = []pair{
	{"Engineers first suspected the {x}, but its metrics looked normal, so they turned to the {comp}.", "엔지니어들은 처음에 {x:를} 의심했지만 지표가 정상이어서 {comp:으로} 눈을 돌렸다."},
	{"Roughly {pct}% of requests in {region} failed during the worst {n} minutes.", "가장 심했던 {n}분 동안 {region} 요청의 약 {pct}%가 실패했다."},
	{"The {x} kept retrying against the {comp}, which added load at the worst moment.", "{x:는} {comp:에} 계속 재시도를 보내 가장 나쁜 순간에 부하를 보탰다."},
	{"Logs from the {comp} showed the {y} timing out long before the alert fired.", "{comp:의} 로그를 보면 경보가 울리기 한참 전부터 {y:이} 시간 초과를 내고 있었다."},
	{"The {team} had changed the {x} {n} days earlier without any problem.", "{team:은} {n}일 전에도 {x:를} 바꿨지만 그때는 아무 문제가 없었다."},
	{"Because the {y} shared hosts with the {comp}, it slowed down as well.", "{y:는} {comp:와} 호스트를 함께 써서 같이 느려졌다."},
	{"Customers on the free plan were affected first, since their traffic is routed through a smaller pool.", "무료 요금제 고객의 트래픽은 더 작은 풀을 거치기 때문에 이들이 가장 먼저 영향을 받았다."},
	{"Internal tools that depend on the {comp} were slow as well, which delayed the response.", "{comp:에} 기대는 내부 도구도 느려져 대응이 늦어졌다."},
	{"The {x} reported healthy the whole time, because it checked only that the process was running.", "{x:는} 프로세스가 떠 있는지만 확인했기 때문에 내내 정상이라고 보고했다."},
	{"At the peak the {comp} handled {n} times its usual number of open connections.", "최대일 때 {comp:은} 평소의 {n}배에 이르는 연결을 붙잡고 있었다."},
	{"Requests that did succeed took up to {n} seconds, against a usual median of 80 milliseconds.", "성공한 요청도 최대 {n}초가 걸렸다. 평소 중앙값은 80밀리초다."},
	{"The {team} considered failing over to another region but decided against it, because the {y} there had not been tested at full load.", "{team:은} 다른 리전으로 장애 조치를 검토했지만, 그쪽 {y:는} 최대 부하로 시험한 적이 없어 그만두었다."},
	{"A second engineer joined at {t2} UTC and began to compare the {x} with the previous day.", "{t2} UTC에 두 번째 엔지니어가 합류해 {x:를} 전날과 비교하기 시작했다."},
	{"The change had passed review and staging, where the {y} is much smaller than in production.", "이 변경은 리뷰와 스테이징을 통과했지만, 스테이징의 {y:는} 운영 환경보다 훨씬 작다."},
	{"Error budgets for the quarter were spent within the first {n} minutes of the incident.", "분기 오류 예산은 장애 첫 {n}분 만에 바닥났다."},
	{"The {comp2} stayed up, but every call it made to the {comp} waited for a timeout.", "{comp2:는} 살아 있었지만 {comp:으로} 보내는 호출마다 타임아웃을 기다렸다."},
	{"Clients with long-lived connections noticed nothing until those connections were recycled.", "오래 유지되는 연결을 쓰는 클라이언트는 그 연결이 새로 맺어지기 전까지 아무것도 느끼지 못했다."},
	{"Graphs of the {x} showed a sawtooth pattern as instances crashed and came back.", "인스턴스가 죽었다 살아나기를 되풀이하면서 {x} 그래프가 톱니 모양을 그렸다."},
	{"Some customers retried their own jobs by hand, which doubled the work queued behind the {comp}.", "일부 고객이 작업을 손으로 다시 돌려 {comp} 뒤에 쌓인 일이 두 배가 됐다."},
	{"The {team} published updates every {n} minutes while the incident lasted.", "{team:은} 장애가 이어지는 동안 {n}분마다 상황을 알렸다."},
	{"No data was lost, but about {pct}% of writes made during the incident had to be replayed.", "데이터는 잃지 않았지만 장애 중에 들어온 쓰기의 약 {pct}%를 다시 처리해야 했다."},
	{"The {y} in {region} recovered first because it had the most spare capacity.", "{region:의} {y:가} 여유 용량이 가장 많아 가장 먼저 회복했다."},
	{"Disabling the {x} bought time, but it did not fix the {comp}.", "{x:를} 끄자 시간을 벌 수는 있었지만 {comp:이} 고쳐지지는 않았다."},
	{"The incident review found that the same {x} had caused a smaller alert a month before.", "사후 검토에서 같은 {x:가} 한 달 전에도 작은 경보를 일으켰다는 사실이 드러났다."},
	{"Engineers compared the failing hosts with healthy ones and found that only the failing ones had the new {y}.", "엔지니어들은 실패한 호스트와 정상 호스트를 비교해 실패한 쪽에만 새 {y:가} 들어가 있다는 것을 찾았다."},
	{"Traffic from mobile clients recovered more slowly, because the apps cache DNS answers for {n} minutes.", "모바일 앱이 DNS 응답을 {n}분 동안 캐시하기 때문에 모바일 클라이언트의 트래픽은 더 늦게 회복했다."},
	{"The {comp} was running {n} versions behind the current release, which made the fix harder to apply.", "{comp:은} 최신 릴리스보다 {n}버전 뒤처져 있어 수정을 적용하기가 더 어려웠다."},
	{"Support received several hundred tickets in the first hour.", "첫 한 시간 동안 고객 지원에 수백 건의 문의가 들어왔다."},
	{"Once the {x} was back, caches had to warm up again, which kept latency high for a while.", "{x:가} 돌아온 뒤에도 캐시를 다시 데워야 해서 한동안 지연이 높았다."},
	{"A manual check of the {y} at {t3} UTC confirmed that the fix had taken effect.", "{t3} UTC에 {y:를} 직접 확인해 수정이 효과를 냈다는 것을 확인했다."},
}
