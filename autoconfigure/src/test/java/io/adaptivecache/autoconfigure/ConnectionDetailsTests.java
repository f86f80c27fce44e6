package io.adaptivecache.autoconfigure;

import java.lang.reflect.Constructor;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.adaptivecache.CacheTemplate;
import io.adaptivecache.devservers.RedisServer;
import io.adaptivecache.devservers.ServerProcess;
import io.adaptivecache.devservers.TlsMaterial;
import io.adaptivecache.memcached.MemcachedServerAddress;
import io.adaptivecache.testservers.MemcachedServerExtension;
import io.adaptivecache.testservers.RedisServerExtension;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.service.connection.ConnectionDetails;
import org.springframework.boot.autoconfigure.service.connection.ConnectionDetailsFactories;
import org.springframework.boot.data.redis.autoconfigure.DataRedisConnectionDetails;
import org.springframework.boot.docker.compose.core.ConnectionPorts;
import org.springframework.boot.docker.compose.core.ImageReference;
import org.springframework.boot.docker.compose.core.RunningService;
import org.springframework.boot.docker.compose.service.connection.DockerComposeConnectionSource;
import org.springframework.boot.origin.Origin;
import org.springframework.boot.ssl.SslBundle;
import org.springframework.boot.ssl.pem.PemSslStoreBundle;
import org.springframework.boot.ssl.pem.PemSslStoreDetails;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.testcontainers.service.connection.ContainerConnectionSource;
import org.springframework.boot.testcontainers.service.connection.ServiceConnection;
import org.springframework.core.annotation.MergedAnnotation;
import org.springframework.core.env.StandardEnvironment;
import org.testcontainers.containers.GenericContainer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Where the templates connect when the application names its servers through Spring Boot's
 * connection details ({@code DataRedisConnectionDetails}, {@link MemcachedConnectionDetails}) rather
 * than the properties; the factories for Docker Compose and Testcontainers, without Docker; no
 * memcached template without servers; Sentinel refused. Each server is proven on the server side.
 */
@ExtendWith(OutputCaptureExtension.class)
class ConnectionDetailsTests {

    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    @RegisterExtension
    static final MemcachedServerExtension memcached = new MemcachedServerExtension();

    private static final TlsMaterial tls = TlsMaterial.selfSigned();

    private static final RedisServer tlsRedis = RedisServer.withTls(tls);

    // Nothing else: neither adaptive-cache.redis.* nor spring.data.redis.* nor adaptive-cache.memcached.servers.
    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(AdaptiveCacheAutoConfiguration.class));

    @BeforeAll
    static void startTlsRedis() {
        tlsRedis.start();
    }

    @AfterAll
    static void stopTlsRedis() {
        tlsRedis.close();
    }

    @Test
    void withoutMemcachedServersThereShouldBeNoMemcachedTemplateAndTheRedisOnlyApplicationStarts() {
        this.contextRunner.withPropertyValues("adaptive-cache.redis.url=" + redis.uri()).run(context -> {
            assertThat(context).hasNotFailed().hasBean("redisCacheTemplate").doesNotHaveBean("memcachedCacheTemplate")
                    .doesNotHaveBean(MemcachedConnectionDetails.class);
        });
    }

    @Test
    void aDataRedisConnectionDetailsBeanShouldPointTheRedisTemplateAtItsServer(CapturedOutput output) {
        int port = redis.server().port();
        this.contextRunner.withBean(DataRedisConnectionDetails.class, () -> new StandaloneDetails("127.0.0.1", port, 2, null))
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    ResolvedRedisConnection connection = context.getBean(ResolvedRedisConnection.class);
                    assertThat(connection.describe()).isEqualTo("127.0.0.1:" + port + " (database 2, TLS off)");
                    assertThat(connection.source()).startsWith("a DataRedisConnectionDetails bean (");
                    context.getBean("redisCacheTemplate", CacheTemplate.class).set("details:k", bytes("from-details"), Duration.ZERO);
                    // Read back by another client on that port and database: the template wrote there, not to 6379 nor database 0.
                    assertThat(readBack(RedisURI.builder().withHost("127.0.0.1").withPort(port).withDatabase(2).build(), "details:k"))
                            .isEqualTo("from-details");
                });
        assertThat(output).contains("adaptive-cache template 'redis' connects to 127.0.0.1:" + port
                + " (database 2, TLS off), from a DataRedisConnectionDetails bean (" + StandaloneDetails.class.getName() + ")");
    }

    @Test
    void aDetailsBeansSslBundleObjectShouldCarryTheTlsOfBothDrivers() {
        SslBundle bundle = SslBundle.of(new PemSslStoreBundle(null,
                PemSslStoreDetails.forCertificate("file:" + tls.certificate())));
        for (String driver : List.of("lettuce", "jedis")) {
            this.contextRunner.withBean(DataRedisConnectionDetails.class, () -> new StandaloneDetails("127.0.0.1", tlsRedis.tlsPort(), 0,
                    bundle)).withPropertyValues("adaptive-cache.redis.strategy.type=pooled", "adaptive-cache.redis.pooled-driver=" + driver)
                    .run(context -> {
                        assertThat(context).hasNotFailed();
                        assertThat(context.getBean(ResolvedRedisConnection.class).describe()).contains("TLS on");
                        CacheTemplate template = context.getBean("redisCacheTemplate", CacheTemplate.class);
                        template.set("tls:" + driver, bytes(driver), Duration.ZERO);
                        assertThat(template.get("tls:" + driver)).as(driver).isEqualTo(bytes(driver));
                    });
        }
    }

    @Test
    void ownRedisSettingsShouldWinOverTheDetailsBeanWhichWinsOverSpringDataRedis() {
        // Details at a port where nothing listens: the context starts only if adaptive-cache.redis.url wins.
        this.contextRunner.withBean(DataRedisConnectionDetails.class, () -> new StandaloneDetails("127.0.0.1", 1, 0, null))
                .withPropertyValues("adaptive-cache.redis.url=" + redis.uri()).run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context.getBean(ResolvedRedisConnection.class).source()).isEqualTo("adaptive-cache.redis.url");
                });
        this.contextRunner.withBean(DataRedisConnectionDetails.class, () -> new StandaloneDetails("127.0.0.1", redis.server().port(), 0,
                null)).withPropertyValues("spring.data.redis.port=1").run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context.getBean(ResolvedRedisConnection.class).describe()).startsWith("127.0.0.1:" + redis.server().port());
                });
    }

    @Test
    void nothingConfiguredShouldSayTheRedisTemplateUsesTheDefaultsWithoutConnecting() {
        // Resolved without a context, so that nothing connects to 127.0.0.1:6379 (not ours).
        ResolvedRedisConnection connection = ResolvedRedisConnection.resolve(new AdaptiveCacheRedisProperties(),
                new org.springframework.boot.context.properties.bind.Binder(
                        new org.springframework.boot.context.properties.source.MapConfigurationPropertySource()));
        assertThat(connection.describe()).isEqualTo("localhost:6379 (database 0, TLS off)");
        assertThat(connection.source()).startsWith("the defaults");
    }

    @Test
    void sentinelShouldBeRefusedFromSpringDataRedisTheDetailsAndAUrl() {
        // With a port where nothing listens beside it, so that a template that ignored the Sentinel settings fails otherwise, off 6379.
        this.contextRunner.withPropertyValues("spring.data.redis.port=1", "spring.data.redis.sentinel.master=mymaster",
                "spring.data.redis.sentinel.nodes=127.0.0.1:26379").run(context -> assertThat(context).getFailure()
                        .rootCause().hasMessageContaining("Redis Sentinel is not supported yet")
                        .hasMessageContaining("spring.data.redis.sentinel.master").hasMessageContaining("adaptive-cache.redis.enabled=false"));
        this.contextRunner.withBean(DataRedisConnectionDetails.class, SentinelDetails::new).run(context -> assertThat(context)
                .getFailure().rootCause().hasMessageContaining("Redis Sentinel is not supported yet")
                .hasMessageContaining("describes a Sentinel setup").hasMessageContaining("adaptive-cache.redis.url"));
        this.contextRunner.withPropertyValues("adaptive-cache.redis.url=redis-sentinel://127.0.0.1:26379/0#mymaster")
                .run(context -> assertThat(context).getFailure().rootCause().hasMessageContaining("Redis Sentinel is not supported yet")
                        .hasMessageContaining("adaptive-cache.redis.url").hasMessageContaining("redis-sentinel://"));
    }

    @Test
    void aSentinelUriAsAClusterNodeOrWithoutItsMasterShouldBeRefusedAsSentinelBeforeAnythingConnects() {
        // Sentinels at a port where nothing listens: a node that reached a socket would fail with a connection error instead.
        String sentinels = "redis-sentinel://127.0.0.1:" + ServerProcess.freeLoopbackPort();
        for (String property : List.of("adaptive-cache.redis.cluster.nodes", "spring.data.redis.cluster.nodes")) {
            for (String node : List.of(sentinels, sentinels + "/0#mymaster")) {
                this.contextRunner.withPropertyValues(property + "=" + node)
                        .run(context -> assertThat(context).getFailure().rootCause()
                                .isInstanceOf(InvalidAdaptiveCachePropertyException.class)
                                .hasMessageContaining("Redis Sentinel is not supported yet (a redis-sentinel:// URI as a cluster node)")
                                .hasMessageContaining(property).hasMessageContaining("adaptive-cache.redis.enabled=false"));
            }
        }
        // Lettuce cannot parse a Sentinel URL without the master's name; it is still a Sentinel URL, not a malformed one.
        this.contextRunner.withPropertyValues("adaptive-cache.redis.url=" + sentinels).run(context -> assertThat(context).getFailure()
                .rootCause().hasMessageContaining("Redis Sentinel is not supported yet (a redis-sentinel:// URL)")
                .hasMessageContaining("adaptive-cache.redis.url"));
    }

    @Test
    void theCoreBuilderShouldRefuseASentinelUri() {
        assertThatIllegalArgumentException().isThrownBy(() -> io.adaptivecache.redis.RedisCacheTemplates.builder()
                .uri(RedisURI.create("redis-sentinel://127.0.0.1:26379/0#mymaster")))
                .withMessageContaining("Redis Sentinel is not supported yet");
        assertThatIllegalArgumentException().isThrownBy(() -> io.adaptivecache.redis.RedisCacheTemplates.builder()
                .uri("redis-sentinel://127.0.0.1:26379/0#mymaster")).withMessageContaining("Redis Sentinel is not supported yet");
    }

    @Test
    void aMemcachedConnectionDetailsBeanShouldGiveTheTemplateItsServer(CapturedOutput output) {
        MemcachedConnectionDetails details = () -> List.of(new MemcachedServerAddress("127.0.0.1", memcached.server().port(), 1));
        this.contextRunner.withPropertyValues("adaptive-cache.redis.enabled=false")
                .withBean(MemcachedConnectionDetails.class, () -> details).run(context -> {
                    assertThat(context).hasNotFailed().hasSingleBean(MemcachedConnectionDetails.class);
                    context.getBean("memcachedCacheTemplate", CacheTemplate.class).set("details:m", bytes("from-details"), Duration.ZERO);
                    assertThat(memcached.server().get("details:m")).isEqualTo("from-details");
                });
        assertThat(output).contains("adaptive-cache template 'memcached' connects to 127.0.0.1:" + memcached.server().port()
                + " (binary protocol, SASL off), from a MemcachedConnectionDetails bean");
    }

    @Test
    void theServersPropertyShouldGiveAPropertiesBasedDetailsBeanThatTheApplicationsOwnReplaces(CapturedOutput output) {
        this.contextRunner.withPropertyValues("adaptive-cache.redis.enabled=false", "adaptive-cache.memcached.servers=" + memcached.addresses())
                .run(context -> {
                    assertThat(context).hasNotFailed().hasSingleBean(PropertiesMemcachedConnectionDetails.class);
                    assertThat(context.getBean(MemcachedConnectionDetails.class).getServers())
                            .containsExactly(new MemcachedServerAddress("127.0.0.1", memcached.server().port(), 1));
                });
        assertThat(output).contains("connects to 127.0.0.1:" + memcached.server().port()
                + " (binary protocol, SASL off), from adaptive-cache.memcached.servers");
        // The application's own bean wins over the property, as Boot's own details do.
        MemcachedConnectionDetails own = () -> List.of(new MemcachedServerAddress("127.0.0.1", memcached.server().port(), 1));
        this.contextRunner.withPropertyValues("adaptive-cache.redis.enabled=false", "adaptive-cache.memcached.servers=127.0.0.1:1")
                .withBean(MemcachedConnectionDetails.class, () -> own).run(context -> {
                    assertThat(context).hasNotFailed().doesNotHaveBean(PropertiesMemcachedConnectionDetails.class);
                    context.getBean("memcachedCacheTemplate", CacheTemplate.class).set("own:m", bytes("own"), Duration.ZERO);
                    assertThat(memcached.server().get("own:m")).isEqualTo("own");
                });
    }

    @Test
    void theDockerComposeFactoryShouldTurnAMemcachedServiceIntoDetailsTheTemplateConnectsWith() throws Exception {
        // No Docker here: a hand-made running service, as Boot's Docker Compose support would describe it, at a real memcached.
        DockerComposeConnectionSource source = dockerComposeSource(new MemcachedService("memcached:1.6", memcached.server().port()));
        Map<Class<?>, ConnectionDetails> found = new ConnectionDetailsFactories(getClass().getClassLoader())
                .getConnectionDetails(source, true);
        assertThat(found).containsKey(MemcachedConnectionDetails.class);
        MemcachedConnectionDetails details = (MemcachedConnectionDetails) found.get(MemcachedConnectionDetails.class);
        assertThat(details.getServers()).containsExactly(new MemcachedServerAddress("127.0.0.1", memcached.server().port(), 1));
        this.contextRunner.withPropertyValues("adaptive-cache.redis.enabled=false")
                .withBean(MemcachedConnectionDetails.class, () -> details).run(context -> {
                    assertThat(context).hasNotFailed();
                    context.getBean("memcachedCacheTemplate", CacheTemplate.class).set("compose:m", bytes("compose"), Duration.ZERO);
                    assertThat(memcached.server().get("compose:m")).isEqualTo("compose");
                });
        // Another image is not memcached's.
        assertThat(new ConnectionDetailsFactories(getClass().getClassLoader())
                .getConnectionDetails(dockerComposeSource(new MemcachedService("nginx:1", memcached.server().port())), false))
                .doesNotContainKey(MemcachedConnectionDetails.class);
    }

    @Test
    void theTestcontainersFactoryShouldTurnAMemcachedContainerIntoDetailsTheTemplateConnectsWith() throws Exception {
        // No Docker here: a container whose start does nothing and whose host and mapped port are a real memcached's.
        Map<Class<?>, ConnectionDetails> found = new ConnectionDetailsFactories(getClass().getClassLoader())
                .getConnectionDetails(containerSource("memcached:1.6", memcached.server().port()), true);
        assertThat(found).containsKey(MemcachedConnectionDetails.class);
        MemcachedConnectionDetails details = (MemcachedConnectionDetails) found.get(MemcachedConnectionDetails.class);
        // As a bean, Spring initializes it (which hands it the container) before the template reads its servers.
        this.contextRunner.withPropertyValues("adaptive-cache.redis.enabled=false")
                .withBean(MemcachedConnectionDetails.class, () -> details).run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(details.getServers()).containsExactly(new MemcachedServerAddress("127.0.0.1", memcached.server().port(), 1));
                    context.getBean("memcachedCacheTemplate", CacheTemplate.class).set("tc:m", bytes("tc"), Duration.ZERO);
                    assertThat(memcached.server().get("tc:m")).isEqualTo("tc");
                });
        assertThat(new ConnectionDetailsFactories(getClass().getClassLoader())
                .getConnectionDetails(containerSource("nginx:1", memcached.server().port()), false))
                .doesNotContainKey(MemcachedConnectionDetails.class);
    }

    private static byte[] bytes(String value) {
        return value.getBytes(StandardCharsets.UTF_8);
    }

    private static String readBack(RedisURI uri, String key) {
        RedisClient client = RedisClient.create(uri);
        try (StatefulRedisConnection<String, String> connection = client.connect()) {
            return connection.sync().get(key);
        }
        finally {
            client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
        }
    }

    /** Boot makes these itself when it reads a Compose file; its constructor is package-private. */
    private static DockerComposeConnectionSource dockerComposeSource(RunningService service) throws Exception {
        Constructor<DockerComposeConnectionSource> constructor = DockerComposeConnectionSource.class
                .getDeclaredConstructor(RunningService.class, org.springframework.core.env.Environment.class);
        constructor.setAccessible(true);
        return constructor.newInstance(service, new StandardEnvironment());
    }

    /** Boot makes these for each {@code @ServiceConnection} bean; its constructor is package-private. */
    @SuppressWarnings({ "unchecked", "rawtypes" })
    private static ContainerConnectionSource<?> containerSource(String image, int port) throws Exception {
        Constructor<?> constructor = null;
        for (Constructor<?> candidate : ContainerConnectionSource.class.getDeclaredConstructors()) {
            if (candidate.getParameterTypes()[4] == MergedAnnotation.class) {
                constructor = candidate;
            }
        }
        constructor.setAccessible(true);
        StandInContainer container = new StandInContainer(image, port);
        return (ContainerConnectionSource<?>) constructor.newInstance("test", new Origin() {
        }, (Class) StandInContainer.class, image, MergedAnnotation.of(ServiceConnection.class),
                (java.util.function.Supplier<StandInContainer>) () -> container, null, null);
    }

    /** A container that Docker never sees: started, it does nothing; its host and memcached port are the test server's. */
    static final class StandInContainer extends GenericContainer<StandInContainer> {

        private final int port;

        StandInContainer(String image, int port) {
            super(image);
            this.port = port;
        }

        @Override
        public void start() {
        }

        @Override
        public String getHost() {
            return "127.0.0.1";
        }

        @Override
        public Integer getMappedPort(int originalPort) {
            return originalPort == 11211 ? this.port : -1;
        }
    }

    /** A Docker Compose service as Boot describes one: an image, a host and its mapped ports. */
    record MemcachedService(String imageName, int port) implements RunningService {

        @Override
        public String name() {
            return "cache";
        }

        @Override
        public ImageReference image() {
            return ImageReference.of(this.imageName);
        }

        @Override
        public String host() {
            return "127.0.0.1";
        }

        @Override
        public ConnectionPorts ports() {
            return new ConnectionPorts() {

                @Override
                public int get(int containerPort) {
                    if (containerPort != 11211) {
                        throw new IllegalStateException("No host port for " + containerPort);
                    }
                    return MemcachedService.this.port;
                }

                @Override
                public List<Integer> getAll() {
                    return List.of(MemcachedService.this.port);
                }

                @Override
                public List<Integer> getAll(String protocol) {
                    return getAll();
                }
            };
        }

        @Override
        public Map<String, String> env() {
            return Map.of();
        }

        @Override
        public Map<String, String> labels() {
            return Map.of();
        }
    }

    /** What a {@code @ServiceConnection} or Docker Compose would give for a standalone Redis. */
    static final class StandaloneDetails implements DataRedisConnectionDetails {

        private final Standalone standalone;

        private final SslBundle ssl;

        StandaloneDetails(String host, int port, int database, SslBundle ssl) {
            this.standalone = Standalone.of(host, port, database);
            this.ssl = ssl;
        }

        @Override
        public Standalone getStandalone() {
            return this.standalone;
        }

        @Override
        public SslBundle getSslBundle() {
            return this.ssl;
        }
    }

    /** The Sentinel shape of the details. */
    static final class SentinelDetails implements DataRedisConnectionDetails {

        @Override
        public Sentinel getSentinel() {
            return new Sentinel() {

                @Override
                public int getDatabase() {
                    return 0;
                }

                @Override
                public String getMaster() {
                    return "mymaster";
                }

                @Override
                public List<Node> getNodes() {
                    return List.of(new Node("127.0.0.1", 26379));
                }

                @Override
                public String getUsername() {
                    return null;
                }

                @Override
                public String getPassword() {
                    return null;
                }
            };
        }
    }
}
