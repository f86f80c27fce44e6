package io.adaptivecache.autoconfigure;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import io.adaptivecache.actuate.endpoint.AdaptiveCacheEndpoint;
import io.adaptivecache.autoconfigure.endpoint.AdaptiveCacheEndpointAutoConfiguration;
import io.adaptivecache.autoconfigure.health.AdaptiveCacheHealthContributorAutoConfiguration;
import io.adaptivecache.management.ManagedCacheTemplate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.actuate.endpoint.Access;
import org.springframework.boot.actuate.endpoint.EndpointId;
import org.springframework.boot.actuate.autoconfigure.endpoint.PropertiesEndpointAccessResolver;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ssl.SslAutoConfiguration;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.analyzer.BootFailureAnalyzers;
import org.springframework.boot.health.contributor.CompositeHealthContributor;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.mock.env.MockEnvironment;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Credentials (a Redis ACL user, memcached SASL) work and never show: not in logs, exception
 * messages, failure analyses, the Actuator endpoint or health. TLS to a local TLS-enabled
 * redis-server, trusted through a Spring Boot SSL bundle. The endpoint's writes are off by default.
 */
@ExtendWith(OutputCaptureExtension.class)
class AdaptiveCacheSecurityTests {

    @RegisterExtension
    static final SecuredServers secured = new SecuredServers("secret-");

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(AdaptiveCacheAutoConfiguration.class, SslAutoConfiguration.class,
                    AdaptiveCacheEndpointAutoConfiguration.class, AdaptiveCacheHealthContributorAutoConfiguration.class))
            .withPropertyValues("adaptive-cache.redis.connect-timeout=1s", "adaptive-cache.memcached.connect-timeout=1s",
                    "management.endpoints.web.exposure.include=adaptivecache");

    @Test
    void credentialsShouldAuthenticateAndAppearInNoLogMessageEndpointOrHealth(CapturedOutput output) {
        this.contextRunner.withPropertyValues(
                "adaptive-cache.redis.url=redis://alice:" + secured.redisPassword + "@" + secured.aclRedis.address(),
                "adaptive-cache.memcached.servers=" + secured.saslMemcached.address(), "adaptive-cache.memcached.username=bob",
                "adaptive-cache.memcached.password=" + secured.memcachedPassword).run(context -> {
                    assertThat(context).hasNotFailed();
                    List<String> shown = new ArrayList<>();
                    for (String name : List.of("redisCacheTemplate", "memcachedCacheTemplate")) {
                        ManagedCacheTemplate template = context.getBean(name, ManagedCacheTemplate.class);
                        template.set("secure:k", new byte[] { 42 }, Duration.ZERO);
                        assertThat(template.get("secure:k")).as("authenticated on " + name).containsExactly(42);
                        shown.add(template.toString());
                    }
                    AdaptiveCacheEndpoint endpoint = context.getBean(AdaptiveCacheEndpoint.class);
                    shown.add(endpoint.templates().toString());
                    CompositeHealthContributor health = context.getBean("adaptiveCacheHealthContributor",
                            CompositeHealthContributor.class);
                    for (String name : List.of("redis", "memcached")) {
                        shown.add(((HealthIndicator) health.getContributor(name)).health().toString());
                    }

                    assertThat(shown).isNotEmpty().noneMatch(this::holdsASecret);
                });
        assertThat(output.getAll()).doesNotContain(secured.redisPassword).doesNotContain(secured.memcachedPassword);
    }

    @Test
    void wrongCredentialsShouldFailStartupWithoutEchoingThem(CapturedOutput output) {
        String wrongRedis = "wrong-redis-" + UUID.randomUUID();
        this.contextRunner.withPropertyValues("adaptive-cache.redis.url=redis://alice:" + wrongRedis + "@" + secured.aclRedis.address(),
                "adaptive-cache.memcached.enabled=false").run(context -> {
                    assertThat(context).hasFailed();
                    assertThat(everyMessage(context.getStartupFailure())).doesNotContain(wrongRedis)
                            .containsIgnoringCase("WRONGPASS");
                    FailureAnalysis analysis = new CacheConnectionFailureAnalyzer().analyze(context.getStartupFailure());
                    assertThat(analysis.getDescription() + analysis.getAction()).doesNotContain(wrongRedis);
                });
        String wrongMemcached = "wrong-memcached-" + UUID.randomUUID();
        this.contextRunner.withPropertyValues("adaptive-cache.redis.enabled=false",
                "adaptive-cache.memcached.servers=" + secured.saslMemcached.address(), "adaptive-cache.memcached.username=bob",
                "adaptive-cache.memcached.password=" + wrongMemcached).run(context -> {
                    assertThat(context).hasFailed();
                    assertThat(everyMessage(context.getStartupFailure())).doesNotContain(wrongMemcached)
                            .contains("did not accept SASL authentication as user 'bob'");
                });
        assertThat(output.getAll()).doesNotContain(wrongRedis).doesNotContain(wrongMemcached);
    }

    @Test
    void saslOnTheXMemcachedDriverShouldFailStartupNamingTheDriverWithoutEchoingThePassword(CapturedOutput output) {
        this.contextRunner.withPropertyValues("adaptive-cache.redis.enabled=false", "adaptive-cache.memcached.driver=xmemcached",
                "adaptive-cache.memcached.servers=" + secured.saslMemcached.address(), "adaptive-cache.memcached.username=bob",
                "adaptive-cache.memcached.password=" + secured.memcachedPassword).run(context -> {
                    assertThat(context).hasFailed();
                    assertThat(everyMessage(context.getStartupFailure())).doesNotContain(secured.memcachedPassword)
                            .contains("adaptive-cache.memcached.driver").contains("needs the spymemcached driver");
                });
        assertThat(output.getAll()).doesNotContain(secured.memcachedPassword);
    }

    @Test
    void aMalformedUrlShouldBeReportedWithItsPasswordMasked(CapturedOutput output) {
        this.contextRunner.withPropertyValues("adaptive-cache.redis.url=redis://alice:" + secured.redisPassword + "@",
                "adaptive-cache.memcached.enabled=false").run(context -> {
                    assertThat(context).hasFailed();
                    FailureAnalysis analysis = BootFailureAnalyzers.invalidValue(context.getStartupFailure());
                    assertThat(analysis.getDescription()).contains("adaptive-cache.redis.url").contains("redis://****@")
                            .doesNotContain(secured.redisPassword);
                    assertThat(everyMessage(context.getStartupFailure())).doesNotContain(secured.redisPassword);
                });
        assertThat(output.getAll()).doesNotContain(secured.redisPassword);
    }

    @Test
    void tlsShouldConnectWhenAnSslBundleTrustsTheServerAndFailWithoutIt() {
        ApplicationContextRunner tlsRunner = this.contextRunner.withPropertyValues("adaptive-cache.memcached.enabled=false",
                "adaptive-cache.redis.url=rediss://127.0.0.1:" + secured.tlsRedis.tlsPort());

        tlsRunner.withPropertyValues("adaptive-cache.redis.ssl.bundle=test-redis",
                "spring.ssl.bundle.pem.test-redis.truststore.certificate=file:" + secured.tls.certificate()).run(context -> {
                    assertThat(context).hasNotFailed();
                    ManagedCacheTemplate template = context.getBean("redisCacheTemplate", ManagedCacheTemplate.class);
                    template.set("tls:k", new byte[] { 7 }, Duration.ZERO);
                    assertThat(template.get("tls:k")).containsExactly(7);
                    assertThat(template.toString()).contains("rediss://");
                });
        tlsRunner.run(context -> assertThat(context).as("the JVM's own trust store does not know the test CA").hasFailed());
        tlsRunner.withPropertyValues("adaptive-cache.redis.ssl.bundle=missing").run(context -> {
            assertThat(context).hasFailed();
            assertThat(BootFailureAnalyzers.invalidValue(context.getStartupFailure()).getDescription())
                    .contains("adaptive-cache.redis.ssl.bundle").contains("no SSL bundle of that name");
        });
    }

    @Test
    void theJedisPooledDriverShouldTrustTheSameSslBundleAsLettuce() {
        // Only the bundle knows the test CA: a Jedis connection on the JVM's own trust would fail its handshake.
        this.contextRunner.withPropertyValues("adaptive-cache.memcached.enabled=false", "adaptive-cache.redis.pooled-driver=jedis",
                "adaptive-cache.redis.strategy.type=pooled", "adaptive-cache.redis.ssl.bundle=test-redis",
                "spring.ssl.bundle.pem.test-redis.truststore.certificate=file:" + secured.tls.certificate(),
                "adaptive-cache.redis.url=rediss://127.0.0.1:" + secured.tlsRedis.tlsPort()).run(context -> {
            assertThat(context).hasNotFailed();
            ManagedCacheTemplate template = context.getBean("redisCacheTemplate", ManagedCacheTemplate.class);
            template.set("tls:jedis", new byte[] { 8 }, Duration.ZERO);
            assertThat(template.get("tls:jedis")).containsExactly(8);
            assertThat(template.stats().openConnections()).isPositive();
        });
    }

    @Test
    void theEndpointShouldBeReadOnlyUnlessTheApplicationOpensIt() {
        Access annotated = AdaptiveCacheEndpoint.class
                .getAnnotation(org.springframework.boot.actuate.endpoint.annotation.Endpoint.class).defaultAccess();
        EndpointId id = EndpointId.of("adaptivecache");

        assertThat(new PropertiesEndpointAccessResolver(new MockEnvironment()).accessFor(id, annotated))
                .isEqualTo(Access.READ_ONLY);
        assertThat(new PropertiesEndpointAccessResolver(new MockEnvironment()
                .withProperty("management.endpoint.adaptivecache.access", "UNRESTRICTED")).accessFor(id, annotated))
                .isEqualTo(Access.UNRESTRICTED);
    }

    private boolean holdsASecret(String text) {
        return text.contains(secured.redisPassword) || text.contains(secured.memcachedPassword);
    }

    private static String everyMessage(Throwable failure) {
        StringBuilder messages = new StringBuilder();
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            messages.append(cause).append('\n');
            for (Throwable suppressed : cause.getSuppressed()) {
                messages.append(suppressed).append('\n');
            }
        }
        return messages.toString();
    }
}
