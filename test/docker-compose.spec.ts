/**
 * docker-compose.yml as an operator starts it (issue 31 item 4): every service that others wait
 * for has a healthcheck (Redis included), the optional `monitoring` profile runs Prometheus and
 * Grafana with the files it mounts present in the repository, Prometheus scrapes the service with
 * an admin token fetched through /oauth/token, and Grafana loads docs/grafana-dashboard.json.
 * `.ci/run` also validates the file with docker-compose itself (`config`) where it can install it.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';

interface Service {
  image?: string;
  profiles?: string[];
  healthcheck?: { test: string[] };
  depends_on?: Record<string, { condition: string }> | string[];
  volumes?: string[];
  environment?: Record<string, string>;
}

const ROOT = process.cwd();
const compose = parse(readFileSync(join(ROOT, 'docker-compose.yml'), 'utf8')) as {
  services: Record<string, Service>;
};
const { services } = compose;

describe('docker-compose.yml', () => {
  it('starts the service only once Postgres and Redis answer their healthchecks, and checks the service itself', () => {
    expect(services.app!.depends_on).toEqual({
      postgres: { condition: 'service_healthy' },
      redis: { condition: 'service_healthy' },
    });
    expect(services.redis!.healthcheck!.test).toEqual(['CMD', 'redis-cli', 'ping']);
    expect(services.postgres!.healthcheck!.test.join(' ')).toContain('pg_isready');
    expect(services.app!.healthcheck!.test.join(' ')).toContain('/health/ready');
  });

  it('runs Prometheus and Grafana only in the monitoring profile, with every mounted file in the repository', () => {
    const monitoring = Object.entries(services).filter(([, service]) =>
      service.profiles?.includes('monitoring'),
    );
    expect(monitoring.map(([name]) => name).sort()).toEqual(['grafana', 'prometheus']);
    for (const name of ['app', 'postgres', 'redis'])
      expect([name, services[name]!.profiles]).toEqual([name, undefined]);
    for (const [name, service] of monitoring) {
      expect([name, service.image]).toEqual([name, expect.stringMatching(/^[a-z/]+:v?\d+\.\d+\.\d+$/)]);
      for (const volume of service.volumes ?? []) {
        const source = volume.split(':')[0]!;
        expect([name, source, existsSync(join(ROOT, source))]).toEqual([name, source, true]);
      }
    }
    expect(services.grafana!.volumes).toContain(
      './docs/grafana-dashboard.json:/var/lib/grafana/dashboards/service.json:ro',
    );
  });

  it('has Prometheus scrape /metrics with an admin token from /oauth/token, and Grafana read that Prometheus', () => {
    const prometheus = parse(readFileSync(join(ROOT, 'docs/monitoring/prometheus.yml'), 'utf8'));
    expect(prometheus.scrape_configs).toEqual([
      expect.objectContaining({
        metrics_path: '/metrics',
        static_configs: [{ targets: ['app:3000'] }],
        oauth2: expect.objectContaining({ token_url: 'http://app:3000/oauth/token', scopes: ['admin'] }),
      }),
    ]);
    const datasources = parse(readFileSync(join(ROOT, 'docs/monitoring/grafana-datasource.yml'), 'utf8'));
    expect(datasources.datasources).toEqual([
      expect.objectContaining({ type: 'prometheus', url: 'http://prometheus:9090', isDefault: true }),
    ]);
    const dashboards = parse(readFileSync(join(ROOT, 'docs/monitoring/grafana-dashboards.yml'), 'utf8'));
    expect(dashboards.providers[0].options.path).toBe('/var/lib/grafana/dashboards');
    expect(JSON.parse(readFileSync(join(ROOT, 'docs/grafana-dashboard.json'), 'utf8')).uid).toBe(
      'crypto-asset-service',
    );
  });
});
