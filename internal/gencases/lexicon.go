package gencases

import (
	"math/rand/v2"
	"strconv"
	"strings"
)

// Real post-mortems are not written from a short word list. Beside the
// shared phrases of the trade they name things: services and libraries by
// their own names, hosts, pods, namespaces and buckets, versions and
// addresses, commits and the exact error a log printed. Most such words turn
// up in one or two reports only, so a library's vocabulary keeps growing with
// its size, and the search index's cost grows with it. The generator imitates
// that with a large lexicon of made-up words drawn by a Zipf law (a few are
// common, most are rare) and with identifiers drawn afresh for each sentence.
//
// A lexicon word is built from syllables that each have a Latin spelling and
// a Hangul reading, so that the Korean side of a case writes the same name as
// Korean text does, in Hangul ("quorvel" is 쿼르벨), with its particles
// attached.

// syllable is one piece of a lexicon word, spelled in Latin letters and read
// in Hangul.
type syllable struct{ en, ko string }

var syllables = []syllable{
	{"ka", "카"}, {"ke", "케"}, {"ki", "키"}, {"ko", "코"}, {"ku", "쿠"},
	{"ta", "타"}, {"te", "테"}, {"ti", "티"}, {"to", "토"}, {"tu", "투"},
	{"ra", "라"}, {"re", "레"}, {"ri", "리"}, {"ro", "로"}, {"ru", "루"},
	{"ma", "마"}, {"me", "메"}, {"mi", "미"}, {"mo", "모"}, {"mu", "무"},
	{"na", "나"}, {"ne", "네"}, {"ni", "니"}, {"no", "노"}, {"nu", "누"},
	{"sa", "사"}, {"se", "세"}, {"si", "시"}, {"so", "소"}, {"su", "수"},
	{"da", "다"}, {"de", "데"}, {"di", "디"}, {"do", "도"}, {"du", "두"},
	{"ba", "바"}, {"be", "베"}, {"bi", "비"}, {"bo", "보"}, {"bu", "부"},
	{"pa", "파"}, {"pe", "페"}, {"pi", "피"}, {"po", "포"}, {"pu", "푸"},
	{"ga", "가"}, {"ge", "게"}, {"go", "고"}, {"gu", "구"}, {"ha", "하"},
	{"ho", "호"}, {"hu", "후"}, {"va", "바"}, {"vo", "보"}, {"za", "자"},
	{"zo", "조"}, {"fa", "파"}, {"fi", "피"}, {"lu", "루"}, {"li", "리"},
	{"kan", "칸"}, {"ton", "톤"}, {"rim", "림"}, {"mel", "멜"}, {"nor", "노르"},
	{"sel", "셀"}, {"dax", "닥스"}, {"vin", "빈"}, {"bel", "벨"}, {"pol", "폴"},
	{"lin", "린"}, {"gar", "가르"}, {"hul", "헐"}, {"zen", "젠"}, {"tor", "토르"},
	{"quor", "쿼르"}, {"vel", "벨"}, {"sta", "스타"}, {"tri", "트리"}, {"kro", "크로"},
	{"pla", "플라"}, {"bri", "브리"}, {"fen", "펜"}, {"mor", "모르"}, {"tal", "탈"},
	{"cor", "코르"}, {"dun", "던"}, {"wex", "웩스"}, {"yar", "야르"}, {"jin", "진"},
	{"ost", "오스트"}, {"ix", "익스"}, {"um", "엄"}, {"ar", "아르"}, {"el", "엘"},
}

// lexiconSize is how many lexicon words there are. Drawn by rank with
// lexZipf, some 40 words a case give a library of 2,000 cases tens of
// thousands of them, most used once or twice, as real text does.
const lexiconSize = 400000

// lexZipf draws lexicon ranks. The exponent just under 1 and the offset
// keep the head from being a handful of words on every case.
var lexZipf = newZipf(lexiconSize, 0.98, 30)

// lexWord returns lexicon word k in both languages. Words are a pure
// function of k, so every library and every seed share the lexicon; a few
// ranks spell the same word, which only makes it a little more common.
func lexWord(k int) word {
	r := rand.New(rand.NewPCG(0x1e8c0, uint64(k)))
	n := 2 + r.IntN(3) - min(r.IntN(3), 1) // 2 to 4 syllables, mostly 2 or 3
	var en, ko strings.Builder
	for range max(n, 2) {
		s := syllables[r.IntN(len(syllables))]
		en.WriteString(s.en)
		ko.WriteString(s.ko)
	}
	return w(en.String(), ko.String())
}

// drawLex draws a lexicon word.
func drawLex(r *rand.Rand) word { return lexWord(lexZipf.draw(r)) }

// capitalize upper-cases the first letter of an ASCII word.
func capitalize(s string) string {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return s
	}
	return string(s[0]-'a'+'A') + s[1:]
}

// productKinds follow a lexicon word to make a product or service name
// ("Quorvel Gateway", 쿼르벨 게이트웨이).
var productKinds = []word{
	w("Gateway", "게이트웨이"), w("Relay", "릴레이"), w("Vault", "볼트"), w("Engine", "엔진"),
	w("Router", "라우터"), w("Sync", "싱크"), w("Broker", "브로커"), w("Agent", "에이전트"),
	w("Store", "스토어"), w("Proxy", "프록시"), w("Scheduler", "스케줄러"), w("Collector", "컬렉터"),
	w("", ""), w("", ""), w("", ""),
}

func product(r *rand.Rand) word {
	l := drawLex(r)
	k := pick(r, productKinds)
	if k.en == "" {
		return w(capitalize(l.en), l.ko)
	}
	return w(capitalize(l.en)+" "+k.en, l.ko+" "+k.ko)
}

// hexDigits writes n random lower-case hexadecimal digits.
func hexDigits(r *rand.Rand, n int) string {
	const digits = "0123456789abcdef"
	b := make([]byte, n)
	for i := range b {
		b[i] = digits[r.IntN(16)]
	}
	return string(b)
}

// alnum writes n random characters as Kubernetes uses for pod suffixes.
func alnum(r *rand.Rand, n int) string {
	const chars = "bcdfghjklmnpqrstvwxz2456789"
	b := make([]byte, n)
	for i := range b {
		b[i] = chars[r.IntN(len(chars))]
	}
	return string(b)
}

func same(s string) word { return w(s, s) }

// version draws a version number as release notes write them.
func version(r *rand.Rand) word {
	major, minor, patch := r.IntN(4), r.IntN(32), r.IntN(24)
	switch r.IntN(4) {
	case 0:
		return same(strconv.Itoa(major+1) + "." + strconv.Itoa(minor) + "." + strconv.Itoa(patch) + "-rc." + strconv.Itoa(1+r.IntN(5)))
	case 1:
		return same(strconv.Itoa(major+1) + "." + strconv.Itoa(minor))
	}
	return same("v" + strconv.Itoa(major) + "." + strconv.Itoa(minor) + "." + strconv.Itoa(patch))
}

func ipAddress(r *rand.Rand) word {
	if r.IntN(3) == 0 {
		return same("172." + strconv.Itoa(16+r.IntN(16)) + "." + strconv.Itoa(r.IntN(256)) + "." + strconv.Itoa(1+r.IntN(254)))
	}
	return same("10." + strconv.Itoa(r.IntN(256)) + "." + strconv.Itoa(r.IntN(256)) + "." + strconv.Itoa(1+r.IntN(254)))
}

var httpCodes = []int{503, 502, 500, 504, 429, 404, 403, 401, 400, 408, 499, 520, 521, 522, 524, 413}

// services are the words services are named after in hosts and pods; about
// half of the names draw a lexicon word instead.
var services = []string{
	"api", "checkout", "auth", "billing", "ingest", "search", "payments", "edge", "web", "worker",
	"gateway", "cart", "orders", "profile", "media", "notify", "ledger", "session", "feed", "catalog",
}

func service(r *rand.Rand) string {
	if r.IntN(2) == 0 {
		return pick(r, services)
	}
	return drawLex(r).en
}

var envs = []string{"prod", "prd", "stg", "internal", "live", "canary"}
var zones = []string{"use1", "usw2", "euw1", "apne2", "apse1", "euc1", "a", "b", "c"}

func host(r *rand.Rand) word {
	name := service(r) + "-" + strconv.Itoa(1+r.IntN(64))
	switch r.IntN(3) {
	case 0:
		name += "." + pick(r, zones) + "." + pick(r, envs)
	case 1:
		name = "ip-" + strings.ReplaceAll(ipAddress(r).en, ".", "-") + "." + pick(r, zones) + ".compute.internal"
	default:
		name += "-" + pick(r, envs)
	}
	return same(name)
}

func pod(r *rand.Rand) word {
	return same(service(r) + "-" + hexDigits(r, 9+r.IntN(2)) + "-" + alnum(r, 5))
}

func namespace(r *rand.Rand) word {
	return same(service(r) + "-" + pick(r, envs))
}

func bucket(r *rand.Rand, o org) word {
	return same(o.slug + "-" + service(r) + "-" + pick(r, []string{"logs", "backups", "artifacts", "snapshots", "exports", "state"}) + "-" + pick(r, zones))
}

func commit(r *rand.Rand) word { return same(hexDigits(r, 7+r.IntN(6))) }

// errorMessage draws an error as a log printed it, in backquotes as a
// report quotes it: the same in both languages.
func errorMessage(r *rand.Rand) word {
	ip, port := ipAddress(r).en, strconv.Itoa(pick(r, []int{443, 5432, 6379, 8080, 9092, 2379, 3306, 8443, 53}))
	var m string
	switch r.IntN(28) {
	case 0:
		m = "dial tcp " + ip + ":" + port + ": connect: connection refused"
	case 1:
		m = "context deadline exceeded"
	case 2:
		m = "x509: certificate has expired or is not yet valid"
	case 3:
		m = "read tcp " + ip + ":" + strconv.Itoa(30000+r.IntN(30000)) + "->" + ipAddress(r).en + ":" + port + ": read: connection reset by peer"
	case 4:
		m = "OOMKilled"
	case 5:
		m = "Back-off restarting failed container " + service(r)
	case 6:
		m = "ERROR 1040 (HY000): Too many connections"
	case 7:
		m = "java.lang.OutOfMemoryError: Java heap space"
	case 8:
		m = "upstream connect error or disconnect/reset before headers. reset reason: overflow"
	case 9:
		m = "ThrottlingException: Rate exceeded"
	case 10:
		m = "SERVFAIL for " + service(r) + "." + pick(r, envs) + ".svc.cluster.local"
	case 11:
		m = "no healthy upstream"
	case 12:
		m = "etcdserver: request timed out"
	case 13:
		m = "accept4: too many open files"
	case 14:
		m = "panic: runtime error: invalid memory address or nil pointer dereference"
	case 15:
		m = "FATAL: remaining connection slots are reserved for non-replication superuser connections"
	case 16:
		m = "Failed to pull image \"registry." + pick(r, envs) + "/" + service(r) + ":" + version(r).en + "\": manifest unknown"
	case 17:
		m = "0/" + strconv.Itoa(3+r.IntN(60)) + " nodes are available: insufficient memory"
	case 18:
		m = "net/http: TLS handshake timeout"
	case 19:
		m = "HTTP " + strconv.Itoa(pick(r, httpCodes)) + " from " + ipAddress(r).en
	case 20:
		m = "ReadTimeout: HTTPSConnectionPool(host='" + service(r) + "." + pick(r, envs) + "', port=" + port + "): Read timed out"
	case 21:
		m = "error: " + drawLex(r).en + ": quota exceeded for resource " + drawLex(r).en
	case 22:
		m = "MOVED " + strconv.Itoa(r.IntN(16384)) + " " + ip + ":" + port
	case 23:
		m = "KafkaError: NOT_LEADER_FOR_PARTITION"
	case 24:
		m = "lease expired for " + service(r) + "-" + strconv.Itoa(r.IntN(16))
	case 25:
		m = "disk usage " + strconv.Itoa(90+r.IntN(10)) + "% on /var/lib/" + drawLex(r).en
	case 26:
		m = "ECONNRESET"
	default:
		m = "fatal error: concurrent map writes"
	}
	return same("`" + m + "`")
}

// details are sentences that carry the names and numbers of a case: hosts,
// pods, versions, commits, buckets, errors and the lexicon's words. Like
// fillers, they read well in any long field.
var details = []pair{
	{"Logs on {host} filled with {err} from {t2} UTC.", "{t2} UTC부터 {host:의} 로그가 {err} 오류로 가득 찼다."},
	{"The pod {pod} in the namespace {ns} restarted {n} times in ten minutes.", "{ns} 네임스페이스의 {pod} 파드는 10분 동안 {n}번 다시 시작했다."},
	{"The {lx} job wrote its checkpoints to the bucket {bucket}, which had reached its request limit.", "{lx} 작업은 체크포인트를 {bucket} 버킷에 썼는데, 이 버킷이 요청 한도에 걸려 있었다."},
	{"Version {ver} of the {prod} client had changed the default of the {x}.", "{prod} 클라이언트 {ver:은} {x:의} 기본값을 바꿔 놓았다."},
	{"Commit {commit} had upgraded the {lx} library from {ver2} to {ver}.", "커밋 {commit:이} {lx} 라이브러리를 {ver2:에서} {ver:으로} 올렸다."},
	{"Calls to {ip} returned HTTP {code} for about {pct}% of requests.", "{ip:로} 가는 요청의 약 {pct}%가 HTTP {code:를} 돌려받았다."},
	{"The owners of {prod} had called the {lx} {x} fragile months before.", "{prod} 담당자들은 몇 달 전에 {lx} {x:를} 위태롭다고 지적했다."},
	{"The {code} responses came from {host}, where the {lx2} sidecar had stopped answering health checks.", "{code} 응답은 {host:에서} 나왔는데, 그곳의 {lx2} 사이드카가 헬스 체크에 답하지 않고 있었다."},
	{"{Prod} keeps its state in {bucket} and reads it back every {n} seconds.", "{prod:는} 상태를 {bucket:에} 두고 {n}초마다 다시 읽는다."},
	{"The rollback to {ver2} went out as commit {commit} at {t3} UTC.", "{ver2:로} 되돌리는 롤백은 {t3} UTC에 커밋 {commit:으로} 나갔다."},
	{"On {host} the kernel log showed {err}.", "{host:의} 커널 로그에는 {err:가} 찍혀 있었다."},
	{"Traffic of the {lx} and {lx2} services moved to {ip} once the {x} failed over.", "{x:가} 넘어가자 {lx:와} {lx2} 서비스의 트래픽이 {ip:로} 옮겨 갔다."},
	{"The {lx} dashboard showed the {lx2} queue growing by {pct}% a minute.", "{lx} 대시보드에서 {lx2} 큐가 1분에 {pct}%씩 불어나는 것이 보였다."},
	{"{Prod} {ver} had been rolled out to {pct}% of the fleet when the errors began.", "오류가 나기 시작했을 때 {prod} {ver:는} 서버군의 {pct}%에 배포된 상태였다."},
	{"A retry loop in the {lx} worker turned every {err} into {n} more requests.", "{lx} 워커의 재시도 루프가 {err} 오류 하나를 요청 {n}건으로 불렸다."},
	{"The namespace {ns} had no resource quota, so the {lx} pods took every free core of the node pool.", "{ns} 네임스페이스에는 리소스 쿼터가 없어서 {lx} 파드가 노드 풀의 남는 코어를 모두 차지했다."},
	{"The {lx} cron job on {host} deleted objects in {bucket} that the {lx2} service still read.", "{host:의} {lx} 크론 작업이 {lx2} 서비스가 아직 읽던 {bucket:의} 객체를 지웠다."},
	{"The {prod} SDK {ver} opened a new connection for every request, against {n} before.", "{prod} SDK {ver:는} 요청마다 새 연결을 열었는데, 그전에는 {n}개를 돌려 썼다."},
	{"Requests with the header x-{lx}-route were sent to {ip}, which no longer existed.", "x-{lx}-route 헤더가 붙은 요청은 이미 없어진 {ip:로} 보내졌다."},
	{"The {team} pinned the {lx} package to {ver2} and rebuilt the image of {pod}.", "{team:은} {lx} 패키지를 {ver2:로} 고정하고 {pod:의} 이미지를 다시 빌드했다."},
	{"Between {t2} and {t3} UTC the {lx} service answered {code} to almost every call.", "{t2} UTC부터 {t3} UTC까지 {lx} 서비스는 거의 모든 호출에 {code:로} 답했다."},
	{"The alert {lx}-{lx2}-saturation had been muted since the last migration.", "{lx}-{lx2}-saturation 경보는 지난 이전 작업 뒤로 꺼져 있었다."},
	{"The {lx} migration script locked the table of {prod} for {n} minutes.", "{lx} 마이그레이션 스크립트가 {prod:의} 테이블을 {n}분 동안 잠갔다."},
	{"Engineers found {err} in the logs of {pod} only after they raised the log level.", "엔지니어들은 로그 수준을 올리고 나서야 {pod:의} 로그에서 {err:를} 찾았다."},
	{"The {lx} feature flag was turned on for {pct}% of users by commit {commit}.", "커밋 {commit:으로} {lx} 기능 플래그가 사용자의 {pct}%에게 켜졌다."},
	{"{Prod} depends on the {lx} and {lx2} libraries, both pinned to versions older than {ver}.", "{prod:는} {lx:와} {lx2} 라이브러리에 기대는데, 둘 다 {ver:보다} 오래된 버전에 고정돼 있었다."},
}
