//! The one technical domain the flywheel study's beliefs live in: a software team's
//! infrastructure and tooling, built from templates over real tool and concept names, so that
//! an embedding model sees text that reads like a real store (an embedding of random tokens
//! measures nothing).
//!
//! A topic is a tool in a role (`redis` as the `session store`). Its candidate surface forms,
//! at most two words each (the alias analyzers match one- and two-word forms, spec §C.1), are:
//! the tool's names, the role's phrases, `<tool> <role head>` and `<tool> <category suffix>`.
//! Topics are every (tool, role) pair of a category, in an order shuffled by the seed; a
//! replacement tool (supersession) is another tool of the topic's category in the same role.

use crate::suite::synthetic::Rng;

/// One category: its tools (each a list of names, the first the usual one), its roles (each a
/// list of phrases, the first the usual one, and a one-word head) and the suffix people put
/// after a tool of this kind (`redis instance`, `kafka cluster`).
pub(crate) struct Category {
    /// Category name.
    pub name: &'static str,
    /// Tools: names, the first the usual one.
    pub tools: &'static [&'static [&'static str]],
    /// Roles: (head word, phrases).
    pub roles: &'static [(&'static str, &'static [&'static str])],
    /// What follows a tool's name (`instance`).
    pub suffix: &'static str,
    /// Other words people put after a tool of this kind (`redis db`, `kafka topics`).
    pub kinds: &'static [&'static str],
}

/// The domain: 7 categories, 1,073 (tool, role) topics.
#[rustfmt::skip]
pub(crate) const CATEGORIES: &[Category] = &[
    Category { name: "datastore", suffix: "instance", kinds: &["db", "cluster"], tools: &[
        &["postgres", "pg", "postgresql"], &["mysql"], &["redis"], &["valkey"], &["mongodb", "mongo"],
        &["cassandra"], &["dynamodb", "dynamo"], &["sqlite"], &["clickhouse"], &["elasticsearch", "elastic"],
        &["opensearch"], &["cockroachdb", "cockroach"], &["memcached"], &["etcd"], &["mariadb"],
        &["timescaledb", "timescale"], &["neo4j"], &["influxdb", "influx"]],
      roles: &[
        ("sessions", &["session store", "session backend", "sessions"]),
        ("db", &["primary database", "main db", "primary db"]),
        ("replica", &["read replica", "replica"]),
        ("cache", &["cache layer", "cache", "caching layer"]),
        ("warehouse", &["analytics warehouse", "warehouse", "analytics db"]),
        ("search", &["search index", "search backend"]),
        ("features", &["feature store", "feature flags"]),
        ("audit", &["audit log", "audit trail"]),
        ("metrics", &["metrics store", "metrics db"]),
        ("ratelimits", &["rate limiter", "rate limits"]),
        ("jobs", &["job store", "job backend"]),
        ("config", &["config store", "settings store"]),
        ("events", &["event store", "event log"]),
        ("leaderboard", &["leaderboard", "rankings"]),
        ("profiles", &["user profiles", "profile store"])] },
    Category { name: "messaging", suffix: "cluster", kinds: &["queue", "topics"], tools: &[
        &["kafka"], &["rabbitmq", "rabbit"], &["nats"], &["sqs"], &["pulsar"], &["redpanda"],
        &["kinesis"], &["pubsub", "google pubsub"], &["activemq"], &["zeromq", "zmq"]],
      roles: &[
        ("bus", &["event bus", "event stream"]),
        ("tasks", &["task queue", "work queue"]),
        ("webhooks", &["webhook dispatcher", "webhooks"]),
        ("auditstream", &["audit stream", "audit events"]),
        ("email", &["email queue", "mail queue"]),
        ("notifications", &["notification fanout", "notifications"]),
        ("orders", &["order events", "order stream"]),
        ("dlq", &["dead letter queue", "dlq"]),
        ("cdc", &["change data capture", "cdc"]),
        ("clickstream", &["clickstream", "click events"])] },
    Category { name: "delivery", suffix: "workflow", kinds: &["pipeline", "jobs"], tools: &[
        &["github actions", "gha", "actions"], &["gitlab ci", "gitlab"], &["jenkins"], &["circleci", "circle"],
        &["buildkite"], &["argo cd", "argo"], &["flux"], &["tekton"], &["drone"], &["travis"]],
      roles: &[
        ("deploys", &["deploy pipeline", "deploys"]),
        ("releases", &["release pipeline", "releases"]),
        ("nightlies", &["nightly build", "nightlies"]),
        ("integration", &["integration tests", "e2e tests"]),
        ("lint", &["lint checks", "linting"]),
        ("canary", &["canary rollout", "canaries"]),
        ("previews", &["preview environments", "previews"]),
        ("images", &["docker builds", "image builds"]),
        ("scans", &["security scans", "vulnerability scans"]),
        ("migrations", &["migration runner", "migrations"])] },
    Category { name: "observability", suffix: "setup", kinds: &["stack", "monitoring"], tools: &[
        &["prometheus", "prom"], &["grafana"], &["datadog"], &["sentry"], &["opentelemetry", "otel"],
        &["jaeger"], &["loki"], &["honeycomb"], &["pagerduty"], &["new relic", "newrelic"],
        &["elastic apm", "apm"], &["statsd"]],
      roles: &[
        ("alerts", &["alerting", "alerts"]),
        ("dashboards", &["dashboards", "ops dashboards"]),
        ("errors", &["error tracking", "errors"]),
        ("tracing", &["distributed tracing", "tracing", "traces"]),
        ("logs", &["log aggregation", "logs"]),
        ("oncall", &["on-call rotation", "on-call"]),
        ("uptime", &["uptime checks", "uptime"]),
        ("slos", &["slo reports", "slos"]),
        ("latency", &["latency metrics", "latency"]),
        ("incidents", &["incident timeline", "incidents"])] },
    Category { name: "infrastructure", suffix: "config", kinds: &["setup", "stack"], tools: &[
        &["kubernetes", "k8s", "kube"], &["terraform", "tf"], &["helm"], &["docker"], &["nomad"],
        &["ansible"], &["pulumi"], &["nginx"], &["envoy"], &["istio"], &["traefik"], &["haproxy"],
        &["consul"], &["vault"], &["packer"], &["caddy"]],
      roles: &[
        ("staging", &["staging cluster", "staging"]),
        ("prod", &["production cluster", "prod cluster"]),
        ("ingress", &["ingress", "ingress controller"]),
        ("mesh", &["service mesh", "mesh"]),
        ("lb", &["load balancer", "lb"]),
        ("secrets", &["secrets management", "secrets"]),
        ("discovery", &["service discovery", "discovery"]),
        ("autoscaling", &["autoscaling", "autoscaler"]),
        ("netpol", &["network policy", "firewall rules"]),
        ("baseimages", &["base images", "golden images"]),
        ("devbox", &["dev environment", "devbox"]),
        ("edge", &["edge proxy", "edge"])] },
    Category { name: "application", suffix: "service", kinds: &["app", "codebase"], tools: &[
        &["rust"], &["typescript", "ts"], &["python"], &["go", "golang"], &["react"], &["nextjs", "next"],
        &["django"], &["fastapi"], &["axum"], &["tokio"], &["rails"], &["spring boot", "spring"],
        &["graphql"], &["grpc"], &["svelte"], &["nodejs", "node"]],
      roles: &[
        ("api", &["api server", "api"]),
        ("frontend", &["frontend", "web app"]),
        ("admin", &["admin panel", "admin"]),
        ("worker", &["background worker", "worker"]),
        ("cli", &["cli tool", "cli"]),
        ("mobile", &["mobile backend", "app backend"]),
        ("billing", &["billing service", "billing"]),
        ("auth", &["auth service", "auth"]),
        ("searchsvc", &["search service", "search api"]),
        ("notifier", &["notification service", "notifier"]),
        ("reports", &["reporting service", "reports"]),
        ("etl", &["data pipeline", "etl"])] },
    Category { name: "platform", suffix: "account", kinds: &["project", "setup"], tools: &[
        &["aws", "amazon"], &["gcp", "google cloud"], &["azure"], &["cloudflare"], &["fly.io", "fly"],
        &["vercel"], &["hetzner"], &["digitalocean"], &["auth0"], &["keycloak"], &["okta"]],
      roles: &[
        ("storage", &["object storage", "buckets"]),
        ("cdn", &["cdn", "edge cache"]),
        ("dns", &["dns", "dns records"]),
        ("sso", &["identity provider", "sso"]),
        ("functions", &["serverless functions", "lambdas"]),
        ("backups", &["backups", "snapshots"]),
        ("costs", &["cost reports", "billing alerts"]),
        ("iam", &["iam roles", "iam"]),
        ("hosting", &["static hosting", "static site"])] },
];

/// A tool in a role: indices into [`CATEGORIES`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) struct Topic {
    /// Category.
    pub category: usize,
    /// Tool within the category.
    pub tool: usize,
    /// Role within the category.
    pub role: usize,
}

impl Topic {
    fn cat(&self) -> &'static Category {
        &CATEGORIES[self.category]
    }

    /// The tool's names, usual first.
    pub(crate) fn tool_names(&self) -> &'static [&'static str] {
        self.cat().tools[self.tool]
    }

    /// The role's phrases, usual first.
    pub(crate) fn role_phrases(&self) -> &'static [&'static str] {
        self.cat().roles[self.role].1
    }

    /// `redis_session_store`: the usual names, underscored, as Tenure writes canonical names.
    pub(crate) fn canonical_name(&self) -> String {
        format!("{} {}", self.tool_names()[0], self.role_phrases()[0]).replace([' ', '-', '.'], "_")
    }

    /// One sentence of content, as an extractor would write it.
    pub(crate) fn content(&self) -> String {
        let cat = self.cat();
        format!(
            "We use {} as our {} ({} layer); decided after comparing it with {}.",
            self.tool_names()[0],
            self.role_phrases()[0],
            cat.name,
            cat.tools[(self.tool + 1) % cat.tools.len()][0]
        )
    }

    /// Candidate surface forms, at most two words each, in template order, without repeats:
    /// the tool's names, the role's phrases, then each tool name followed by the role's head,
    /// by each word of the role's phrases, by the category's suffix and by its other words.
    pub(crate) fn candidate_forms(&self) -> Vec<String> {
        let head = self.cat().roles[self.role].0;
        let mut out: Vec<String> = Vec::new();
        let mut push = |f: String| {
            if f.split_whitespace().count() <= 2 && !out.contains(&f) {
                out.push(f);
            }
        };
        self.tool_names().iter().for_each(|n| push(n.to_string()));
        self.role_phrases().iter().for_each(|p| push(p.to_string()));
        let words: Vec<&str> = self
            .role_phrases()
            .iter()
            .flat_map(|p| p.split_whitespace())
            .collect();
        for tool in self.tool_names() {
            push(format!("{tool} {head}"));
            words.iter().for_each(|w| push(format!("{tool} {w}")));
            push(format!("{tool} {}", self.cat().suffix));
            self.cat()
                .kinds
                .iter()
                .for_each(|k| push(format!("{tool} {k}")));
        }
        out
    }

    /// Forms a drifting user may coin later (`redis setup`, `sessions stack`), in order.
    pub(crate) fn drift_forms(&self) -> Vec<String> {
        let tool = self.tool_names()[0];
        let head = self.cat().roles[self.role].0;
        ["setup", "stack", "thing", "box", "layer", "side"]
            .iter()
            .flat_map(|w| [format!("{tool} {w}"), format!("{head} {w}")])
            .filter(|f| f.split_whitespace().count() <= 2)
            .collect()
    }

    /// Another tool of the same category in the same role (the replacement of a supersession),
    /// drawn from `rng`; `None` when the category has one tool.
    pub(crate) fn replacement(&self, rng: &mut Rng) -> Option<Topic> {
        let n = self.cat().tools.len();
        (n > 1).then(|| Topic {
            tool: (self.tool + 1 + rng.below(n - 1)) % n,
            ..*self
        })
    }
}

/// Every topic of the domain, shuffled by `seed` (Fisher-Yates over xorshift64*).
pub(crate) fn topics(seed: u64) -> Vec<Topic> {
    let mut all: Vec<Topic> = CATEGORIES
        .iter()
        .enumerate()
        .flat_map(|(category, c)| {
            (0..c.tools.len()).flat_map(move |tool| {
                (0..c.roles.len()).map(move |role| Topic {
                    category,
                    tool,
                    role,
                })
            })
        })
        .collect();
    let mut rng = Rng::new(seed ^ 0xD0_4A1E);
    for i in (1..all.len()).rev() {
        all.swap(i, rng.below(i + 1));
    }
    all
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_domain_has_over_a_thousand_topics_and_readable_forms() {
        let all = topics(1);
        assert_eq!(all.len(), 1073);
        assert_eq!(all, topics(1));
        assert_ne!(all, topics(2));
        let redis = Topic {
            category: 0,
            tool: 2,
            role: 0,
        };
        assert_eq!(redis.canonical_name(), "redis_session_store");
        assert_eq!(
            redis.candidate_forms(),
            [
                "redis",
                "session store",
                "session backend",
                "sessions",
                "redis sessions",
                "redis session",
                "redis store",
                "redis backend",
                "redis instance",
                "redis db",
                "redis cluster"
            ]
        );
        for t in &all {
            assert!(t
                .candidate_forms()
                .iter()
                .all(|f| f.split_whitespace().count() <= 2));
        }
    }
}
