package gencases

// The controlled vocabularies. Each table is listed most common first: the
// generator draws terms by rank with a Zipf law, so the first few terms of a
// facet end up on a large share of cases and the tail on a handful, and
// vocab.json lists them in the same order. The ids used by the hand-written
// seed cases (ingress, health-probe, software-bug, …) are all present, so a
// generated library can sit next to the real cases.

// component is a part of the system that failed or sat in the failure's path.
// noun is how English prose names it after "the".
type component struct{ id, en, ko, noun string }

var components = []component{
	{"cloud-load-balancer", "Cloud load balancer", "클라우드 로드 밸런서", "cloud load balancer"},
	{"ingress", "Ingress controller", "인그레스 컨트롤러", "ingress controller"},
	{"dns", "DNS resolver", "DNS 리졸버", "DNS resolver"},
	{"database", "Primary database", "주 데이터베이스", "primary database"},
	{"kube-apiserver", "Kubernetes API server", "쿠버네티스 API 서버", "Kubernetes API server"},
	{"cdn", "CDN", "콘텐츠 전송 네트워크", "CDN"},
	{"config-service", "Configuration service", "설정 서비스", "configuration service"},
	{"health-probe", "Health probe", "헬스 체크", "health checking"},
	{"network-backbone", "Network backbone", "네트워크 백본", "network backbone"},
	{"cache", "Cache cluster", "캐시 클러스터", "cache cluster"},
	{"auth-service", "Authentication service", "인증 서비스", "authentication service"},
	{"deploy-pipeline", "Deployment pipeline", "배포 파이프라인", "deployment pipeline"},
	{"etcd", "etcd", "etcd 저장소", "etcd cluster"},
	{"object-storage", "Object storage", "오브젝트 스토리지", "object storage"},
	{"api-gateway", "API gateway", "API 게이트웨이", "API gateway"},
	{"message-queue", "Message queue", "메시지 큐", "message queue"},
	{"service-mesh", "Service mesh", "서비스 메시", "service mesh"},
	{"node-pool", "Node pool", "노드 풀", "node pool"},
	{"autoscaler", "Autoscaler", "오토스케일러", "autoscaler"},
	{"bgp", "BGP routing", "BGP 라우팅", "BGP routing"},
	{"tls-certs", "TLS certificates", "TLS 인증서", "TLS certificates"},
	{"control-plane", "Cloud control plane", "클라우드 컨트롤 플레인", "cloud control plane"},
	{"container-runtime", "Container runtime", "컨테이너 런타임", "container runtime"},
	{"block-storage", "Block storage", "블록 스토리지", "block storage"},
	{"monitoring", "Monitoring system", "모니터링 시스템", "monitoring system"},
	{"service-discovery", "Service discovery", "서비스 디스커버리", "service discovery"},
	{"replication", "Database replication", "데이터베이스 복제", "database replication"},
	{"feature-flags", "Feature flag system", "기능 플래그 시스템", "feature flag system"},
	{"firewall", "Firewall rules", "방화벽 규칙", "firewall rules"},
	{"logging-pipeline", "Logging pipeline", "로그 파이프라인", "logging pipeline"},
	{"scheduler", "Kubernetes scheduler", "쿠버네티스 스케줄러", "Kubernetes scheduler"},
	{"cni", "CNI plugin", "CNI 플러그인", "CNI plugin"},
	{"secrets-store", "Secrets store", "시크릿 저장소", "secrets store"},
	{"rate-limiter", "Rate limiter", "요청 제한기", "rate limiter"},
	{"search-cluster", "Search cluster", "검색 클러스터", "search cluster"},
	{"iam", "IAM policies", "IAM 정책", "IAM policies"},
	{"vpn", "VPN gateway", "VPN 게이트웨이", "VPN gateway"},
	{"container-registry", "Container registry", "컨테이너 레지스트리", "container registry"},
	{"payment-service", "Payment service", "결제 서비스", "payment service"},
	{"batch-jobs", "Batch job system", "배치 작업 시스템", "batch job system"},
}

// symptom is what users and operators saw. en and ko clauses are complete
// statements that templates place after a time or a cause.
type symptom struct{ id, en, ko, clauseEn, clauseKo string }

var symptoms = []symptom{
	{"high-error-rate", "Elevated error rate", "오류율 증가", "a large share of requests failed with errors", "요청 상당수가 오류로 실패했다"},
	{"high-latency", "High latency", "지연 증가", "response times climbed far above normal", "응답 시간이 평소보다 크게 늘었다"},
	{"partial-outage", "Partial outage", "부분 장애", "a subset of customers lost access to the service", "일부 고객이 서비스에 접근하지 못했다"},
	{"full-outage", "Complete outage", "전면 중단", "the service stopped answering altogether", "서비스가 아예 응답하지 않았다"},
	{"timeouts", "Request timeouts", "요청 시간 초과", "requests timed out before they reached a backend", "요청이 백엔드에 닿기 전에 시간 초과됐다"},
	{"elevated-5xx", "5xx responses", "5xx 응답", "load balancers answered with 502 and 503 responses", "로드 밸런서가 502와 503 응답을 냈다"},
	{"degraded-performance", "Degraded performance", "성능 저하", "pages loaded slowly and some actions failed", "페이지가 느리게 열리고 일부 작업이 실패했다"},
	{"connection-resets", "Connection resets", "연결 재설정", "open connections were reset in the middle of requests", "열린 연결이 요청 도중에 재설정됐다"},
	{"readiness-probe-failures", "Readiness probe failures", "레디니스 프로브 실패", "readiness probes failed and pods were taken out of rotation", "레디니스 프로브가 실패해 파드가 트래픽에서 빠졌다"},
	{"dns-resolution-failures", "DNS resolution failures", "DNS 조회 실패", "DNS lookups returned SERVFAIL or no answer at all", "DNS 조회가 SERVFAIL을 돌려주거나 아예 답하지 않았다"},
	{"login-failures", "Login failures", "로그인 실패", "users could not log in or were logged out", "사용자가 로그인하지 못하거나 갑자기 로그아웃됐다"},
	{"api-unavailable", "API unavailable", "API 사용 불가", "the public API returned 503 to most callers", "공개 API가 대부분의 호출에 503을 돌려줬다"},
	{"cascading-failure", "Cascading failure", "연쇄 장애", "the failure spread to the services that depend on the broken one", "장애가 망가진 서비스에 기대는 서비스들로 번졌다"},
	{"pod-crashloop", "Pods in CrashLoopBackOff", "파드 반복 재시작", "pods crashed on start and went into CrashLoopBackOff", "파드가 뜨자마자 죽어 CrashLoopBackOff 상태에 빠졌다"},
	{"node-not-ready", "Nodes NotReady", "노드 NotReady", "nodes went NotReady and their workloads were evicted", "노드가 NotReady 상태가 되면서 워크로드가 쫓겨났다"},
	{"packet-loss", "Packet loss", "패킷 손실", "packets were dropped on the paths between regions", "리전 사이 경로에서 패킷이 유실됐다"},
	{"deploy-blocked", "Deployments blocked", "배포 중단", "deployments stalled and could be rolled neither forward nor back", "배포가 멈춰 앞으로도 뒤로도 진행할 수 없었다"},
	{"queue-backlog", "Queue backlog", "큐 적체", "messages piled up in queues faster than consumers could drain them", "소비자가 처리하는 속도보다 빠르게 메시지가 큐에 쌓였다"},
	{"replication-lag", "Replication lag", "복제 지연", "replicas fell minutes behind the primary", "복제본이 주 서버보다 몇 분씩 뒤처졌다"},
	{"cert-errors", "TLS handshake errors", "TLS 핸드셰이크 오류", "clients failed TLS handshakes with certificate errors", "클라이언트가 인증서 오류로 TLS 핸드셰이크에 실패했다"},
	{"memory-exhaustion", "Memory exhaustion", "메모리 고갈", "processes ran out of memory and were killed", "프로세스가 메모리를 다 써서 강제로 종료됐다"},
	{"cpu-saturation", "CPU saturation", "CPU 포화", "CPU usage sat at 100% on the affected hosts", "영향받은 호스트의 CPU 사용률이 100%에 붙었다"},
	{"capacity-exhausted", "Capacity exhausted", "용량 소진", "new instances could not be launched for lack of capacity", "용량이 모자라 새 인스턴스를 띄우지 못했다"},
	{"stale-content", "Stale content served", "오래된 콘텐츠 제공", "users were served stale pages long after updates", "갱신 뒤에도 사용자에게 오래된 페이지가 한참 나갔다"},
	{"data-inconsistency", "Inconsistent data", "데이터 불일치", "replicas served different versions of the same records", "복제본마다 같은 레코드의 다른 버전을 돌려줬다"},
	{"control-plane-unavailable", "Control plane unavailable", "컨트롤 플레인 불능", "the control plane stopped accepting changes", "컨트롤 플레인이 변경 요청을 받지 않았다"},
	{"throttling", "Requests throttled", "요청 제한", "callers were throttled with 429 responses", "호출자가 429 응답으로 제한을 받았다"},
	{"disk-full", "Disk full", "디스크 가득 참", "disks filled up and writes started to fail", "디스크가 가득 차 쓰기가 실패하기 시작했다"},
	{"routing-errors", "Routing errors", "라우팅 오류", "traffic was sent to the wrong region or dropped", "트래픽이 엉뚱한 리전으로 가거나 버려졌다"},
	{"webhook-failures", "Webhook delivery failures", "웹훅 전달 실패", "webhook deliveries failed and had to be retried later", "웹훅 전달이 실패해 나중에 다시 보내야 했다"},
	{"image-pull-errors", "Image pull errors", "이미지 풀 오류", "nodes could not pull container images", "노드가 컨테이너 이미지를 받아 오지 못했다"},
	{"dashboard-unavailable", "Console unavailable", "콘솔 접속 불가", "the management console would not load", "관리 콘솔이 열리지 않았다"},
	{"monitoring-blind", "Monitoring blind spot", "모니터링 공백", "dashboards went blank and the team could not see what was happening", "대시보드가 비어 팀이 상황을 볼 수 없었다"},
	{"data-loss", "Data loss", "데이터 유실", "some recently written data could not be recovered", "최근에 쓴 데이터 일부를 되살리지 못했다"},
	{"split-brain", "Split brain", "스플릿 브레인", "two nodes both believed they were the leader", "두 노드가 서로 자신이 리더라고 여겼다"},
	{"notification-delay", "Delayed notifications", "알림 지연", "emails and notifications arrived hours late", "이메일과 알림이 몇 시간 늦게 도착했다"},
	{"job-failures", "Failed batch jobs", "배치 작업 실패", "scheduled jobs failed or never started", "예약된 작업이 실패하거나 아예 시작하지 않았다"},
	{"search-unavailable", "Search unavailable", "검색 불가", "search returned empty or partial results", "검색이 빈 결과나 일부 결과만 돌려줬다"},
	{"payment-failures", "Payment failures", "결제 실패", "checkout and payment requests were declined", "결제 요청이 거절됐다"},
	{"mobile-app-errors", "Mobile app errors", "모바일 앱 오류", "the mobile apps showed error screens", "모바일 앱에 오류 화면이 떴다"},
}

// rootCause is the one underlying cause of a case. shortEn/shortKo name it
// inside a sentence; triggerEn/triggerKo are templates (see fill) that tell
// how it set the incident off.
type rootCause struct{ id, en, ko, shortEn, shortKo, triggerEn, triggerKo string }

var rootCauses = []rootCause{
	{"config-change", "Bad configuration change", "잘못된 설정 변경", "a bad configuration change", "잘못된 설정 변경",
		"A configuration change to the {comp} was pushed at {t1} UTC and carried a value that the {comp} could not handle.",
		"{t1} UTC에 {comp:에} 설정 변경이 배포됐고, 그 안에 {comp:이} 처리하지 못하는 값이 들어 있었다."},
	{"software-bug", "Software defect", "소프트웨어 결함", "a software defect", "소프트웨어 결함",
		"A latent defect in the {comp} was set off by a routine change, and the {comp} began to fail requests it should have served.",
		"{comp:에} 숨어 있던 결함이 평소 같은 변경으로 드러났고, {comp:은} 처리해야 할 요청을 실패시키기 시작했다."},
	{"deploy", "Faulty deployment", "잘못된 배포", "a faulty deployment", "잘못된 배포",
		"A new release of the {comp} went out to every region within {n} minutes, and the new version failed under production traffic.",
		"{comp:의} 새 버전이 {n}분 만에 모든 리전에 배포됐고, 새 버전은 운영 트래픽을 받자 실패했다."},
	{"capacity", "Capacity exhaustion", "용량 부족", "capacity exhaustion", "용량 부족",
		"Traffic to the {comp} grew {n} times above the usual peak, and the {comp} ran out of headroom.",
		"{comp:으로} 가는 트래픽이 평소 최대치의 {n}배로 늘었고, {comp:은} 여유 용량을 모두 써 버렸다."},
	{"dependency-failure", "Upstream dependency failure", "상위 의존성 장애", "a failure in an upstream dependency", "상위 의존성 장애",
		"An upstream provider that the {comp} depends on failed at {t1} UTC, and the {comp} had no path around it.",
		"{t1} UTC에 {comp:이} 기대는 상위 서비스가 멈췄고, {comp:에는} 그 서비스를 우회할 길이 없었다."},
	{"network-partition", "Network partition", "네트워크 분할", "a network partition", "네트워크 분할",
		"A network partition cut the {comp} off from part of the fleet, and both sides kept running on their own view.",
		"네트워크 분할로 {comp:이} 인프라 일부와 끊겼고, 양쪽이 서로 다른 상태를 믿은 채 계속 동작했다."},
	{"human-error", "Operator error", "운영자 실수", "an operator error", "운영자 실수",
		"During planned maintenance an engineer ran a command against the {comp} in production that was meant for a test environment.",
		"계획된 유지 보수 중 엔지니어가 테스트 환경용 명령을 운영 환경의 {comp:에} 실행했다."},
	{"hardware-failure", "Hardware failure", "하드웨어 고장", "a hardware failure", "하드웨어 고장",
		"A faulty network card in a host of the {comp} began to corrupt packets, and the host was not removed from service.",
		"{comp:의} 호스트 한 대에서 네트워크 카드가 고장 나 패킷을 망가뜨렸지만, 그 호스트는 서비스에서 빠지지 않았다."},
	{"resource-leak", "Resource leak", "자원 누수", "a resource leak", "자원 누수",
		"A slow leak of file descriptors in the {comp} built up over {n} days until new connections were refused.",
		"{comp:에서} 파일 디스크립터가 {n}일 동안 조금씩 새어 나가다가 결국 새 연결을 거부했다."},
	{"cert-expiry", "Expired certificate", "인증서 만료", "an expired certificate", "인증서 만료",
		"A certificate used by the {comp} expired at {t1} UTC, because its renewal job had been failing silently.",
		"갱신 작업이 조용히 실패하고 있었던 탓에 {comp:이} 쓰는 인증서가 {t1} UTC에 만료됐다."},
	{"dns-misconfig", "DNS misconfiguration", "DNS 설정 오류", "a DNS misconfiguration", "DNS 설정 오류",
		"A DNS record for the {comp} was changed to point at an address that no longer served traffic.",
		"{comp:의} DNS 레코드가 더는 트래픽을 받지 않는 주소를 가리키도록 바뀌었다."},
	{"thundering-herd", "Thundering herd", "요청 쇄도", "a thundering herd of retries", "재시도 쇄도",
		"After a short blip, every client retried against the {comp} at the same moment and kept it from recovering.",
		"짧은 장애 뒤 모든 클라이언트가 같은 순간 {comp:에} 재시도를 보내 {comp:이} 회복하지 못하게 했다."},
	{"data-corruption", "Data corruption", "데이터 손상", "data corruption", "데이터 손상",
		"A migration wrote malformed records into the {comp}, and readers crashed when they met them.",
		"마이그레이션이 {comp:에} 잘못된 형식의 레코드를 썼고, 이를 읽은 프로세스가 죽었다."},
	{"power-cooling", "Power or cooling failure", "전력·냉각 장애", "a power and cooling failure", "전력·냉각 장애",
		"A cooling failure in one data centre forced the hosts of the {comp} there to shut down to protect the hardware.",
		"한 데이터 센터의 냉각 장치가 고장 나 그곳의 {comp} 호스트들이 장비 보호를 위해 꺼졌다."},
	{"security-incident", "Security incident", "보안 사고", "a security incident", "보안 사고",
		"A flood of malicious requests aimed at the {comp} overwhelmed its defences at {t1} UTC.",
		"{t1} UTC에 {comp:을} 노린 악성 요청이 쏟아져 방어 장치가 감당하지 못했다."},
}

// contributing is a factor that made an incident worse or longer. lessonEn
// and lessonKo are sentence templates used in the lessons and summaries.
type contributing struct{ id, en, ko, lessonEn, lessonKo string }

var contributings = []contributing{
	{"automation-amplified", "Automation amplified the failure", "자동화가 장애를 키움",
		"Automation that was meant to protect the {comp} removed healthy instances along with broken ones and made the outage larger.",
		"{comp:을} 보호하려던 자동화가 망가진 인스턴스와 함께 멀쩡한 인스턴스까지 빼 버려 장애가 커졌다."},
	{"test-coverage-gap", "Gap in test coverage", "테스트 공백", "No test exercised the path that failed, so the defect reached production unnoticed.",
		"실패한 경로를 시험하는 테스트가 없어 결함이 눈에 띄지 않고 운영 환경까지 갔다."},
	{"blast-radius-too-wide", "Blast radius too wide", "넓은 장애 반경", "A single change reached every region at once, so there was no unaffected area to fail over to.",
		"변경 하나가 모든 리전에 한꺼번에 닿아 장애 조치로 옮겨 갈 멀쩡한 지역이 없었다."},
	{"no-spare-capacity", "No spare capacity", "여유 용량 부족", "The remaining instances had no spare capacity to absorb the traffic of the ones that failed.",
		"남은 인스턴스에는 실패한 인스턴스의 트래픽을 받아 낼 여유 용량이 없었다."},
	{"missing-alerts", "Missing alerts", "경보 누락", "No alert covered the {comp}, and the first signal came from customers.",
		"{comp:을} 지켜보는 경보가 없어 첫 신호는 고객에게서 왔다."},
	{"slow-rollback", "Slow rollback", "느린 롤백", "Rolling back took {n} minutes because the previous version had to be rebuilt first.",
		"이전 버전을 다시 빌드해야 해서 롤백에 {n}분이 걸렸다."},
	{"retry-storm", "Retry storm", "재시도 폭주", "Clients retried without backoff and multiplied the load on the {comp}.",
		"클라이언트가 백오프 없이 재시도해 {comp:의} 부하를 몇 배로 키웠다."},
	{"single-point-of-failure", "Single point of failure", "단일 장애점", "The {comp} was a single point of failure that every request passed through.",
		"{comp:은} 모든 요청이 거쳐 가는 단일 장애점이었다."},
	{"insufficient-monitoring", "Insufficient monitoring", "모니터링 부족", "Dashboards showed averages only, which hid the failing share of requests.",
		"대시보드가 평균값만 보여 줘 실패하는 요청의 비율이 가려졌다."},
	{"status-page-delay", "Late status page", "상태 페이지 갱신 지연", "The status page was updated {n} minutes after the team knew about the problem, which confused customers.",
		"팀이 문제를 안 뒤 {n}분이 지나서야 상태 페이지가 갱신돼 고객이 혼란을 겪었다."},
	{"global-rollout", "Global rollout at once", "전 지역 동시 배포", "The change was rolled out globally instead of region by region.",
		"변경이 리전별로 차례차례가 아니라 전 세계에 한꺼번에 배포됐다."},
	{"no-canary", "No canary stage", "카나리 단계 없음", "The release skipped the canary stage that would have caught the fault on a small share of traffic.",
		"적은 트래픽으로 결함을 잡아낼 수 있었던 카나리 단계를 이번 배포는 건너뛰었다."},
	{"circular-dependency", "Circular dependency", "순환 의존성", "The tools needed to repair the {comp} themselves depended on the {comp}.",
		"{comp:을} 고치는 데 필요한 도구가 바로 그 {comp:에} 기대고 있었다."},
	{"timeout-misconfig", "Badly tuned timeouts", "잘못 맞춘 타임아웃", "Timeouts were longer than the callers' own deadlines, so requests piled up instead of failing fast.",
		"타임아웃이 호출자의 마감 시간보다 길어 요청이 빨리 실패하지 않고 쌓였다."},
	{"stale-runbook", "Outdated runbook", "낡은 런북", "The runbook for the {comp} described a setup that had changed a year earlier.",
		"{comp:의} 런북은 1년 전에 바뀐 구성을 설명하고 있었다."},
	{"missing-rate-limit", "Missing rate limits", "요청 제한 부재", "Nothing limited how fast a single caller could send requests to the {comp}.",
		"호출자 하나가 {comp:에} 요청을 보내는 속도를 제한하는 장치가 없었다."},
	{"manual-process", "Manual process", "수작업 절차", "Recovery depended on manual steps that only a few engineers knew.",
		"복구가 몇몇 엔지니어만 아는 수작업 절차에 달려 있었다."},
	{"config-drift", "Configuration drift", "설정 표류", "The {comp} in production had drifted from the configuration kept in version control.",
		"운영 환경의 {comp:은} 버전 관리에 있는 설정과 어느새 달라져 있었다."},
	{"dependency-unknown", "Unknown dependency", "몰랐던 의존성", "The team did not know that the {comp} depended on the failing service.",
		"팀은 {comp:이} 장애가 난 서비스에 기대고 있다는 사실을 몰랐다."},
	{"failover-untested", "Untested failover", "검증 안 된 장애 조치", "Failover had never been exercised under real load and did not work when it was needed.",
		"장애 조치를 실제 부하에서 한 번도 시험하지 않아 정작 필요할 때 동작하지 않았다."},
	{"tight-coupling", "Tight coupling", "강한 결합", "Services were coupled so tightly that a failure in one stopped the others.",
		"서비스들이 너무 강하게 묶여 있어 하나의 장애가 나머지를 멈춰 세웠다."},
	{"alert-fatigue", "Alert fatigue", "경보 피로", "The first alert was lost among dozens of noisy alerts that fired every day.",
		"첫 경보는 날마다 울리는 시끄러운 경보 수십 개에 묻혀 버렸다."},
	{"unclear-ownership", "Unclear ownership", "불분명한 책임", "Nobody was sure which team owned the {comp}, which delayed the first response.",
		"{comp:을} 어느 팀이 맡는지 분명하지 않아 첫 대응이 늦어졌다."},
	{"access-during-outage", "Tools unreachable during outage", "장애 중 도구 접근 불가", "Engineers could not reach their own tools during the outage, because those tools ran on the same platform.",
		"엔지니어가 쓰는 도구도 같은 플랫폼에서 돌고 있어 장애 중에는 도구에 접근하지 못했다."},
	{"capacity-planning", "Weak capacity planning", "부실한 용량 계획", "Capacity planning had assumed last year's peak and not the growth since then.",
		"용량 계획은 작년 최대치만 보고 그 뒤의 성장을 반영하지 않았다."},
}

// domain is the broad area a case belongs to.
type domain struct{ id, en, ko string }

var domains = []domain{
	{"kubernetes", "Kubernetes", "쿠버네티스"},
	{"networking", "Networking", "네트워킹"},
	{"aws", "AWS", "AWS"},
	{"databases", "Databases", "데이터베이스"},
	{"gcp", "Google Cloud", "Google Cloud"},
	{"dns", "DNS", "DNS"},
	{"cdn-edge", "CDN and edge", "CDN·엣지"},
	{"ci-cd", "CI/CD", "CI/CD"},
	{"azure", "Azure", "Azure"},
	{"storage", "Storage", "스토리지"},
	{"observability", "Observability", "관측성"},
	{"security", "Security", "보안"},
}

// severities are listed most severe first, the order the site shows them.
// impactLevels are the content's own levels: every case has one.
var impactLevels = []domain{
	{"full-outage", "Full outage", "전면 장애"},
	{"partial-outage", "Partial outage", "부분 장애"},
	{"degraded", "Degraded", "성능 저하"},
	{"exposure", "Exposure without outage", "장애 없는 노출"},
	{"near-miss", "Near miss", "아차 사고"},
}

var severities = []domain{
	{"sev1", "SEV1: critical", "SEV1: 치명적"},
	{"sev2", "SEV2: major", "SEV2: 주요"},
	{"sev3", "SEV3: minor", "SEV3: 경미"},
	{"sev4", "SEV4: low", "SEV4: 낮음"},
}
