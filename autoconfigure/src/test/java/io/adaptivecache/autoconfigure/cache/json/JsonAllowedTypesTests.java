package io.adaptivecache.autoconfigure.cache.json;

import java.util.UUID;

import io.adaptivecache.autoconfigure.ContextRunners;
import io.adaptivecache.autoconfigure.cache.AdaptiveCacheSpringCacheAutoConfiguration;
import io.adaptivecache.autoconfigure.cache.json.app.AllowListApplication;
import io.adaptivecache.autoconfigure.cache.json.gadget.Gadget;
import io.adaptivecache.spring.cache.JsonCacheValueSerializer;
import io.adaptivecache.testservers.RedisServerExtension;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Which classes a value stored in the server may make the JSON serializer build. Values are planted
 * straight into a real Redis with a client of the test's own, as anyone who can write to the
 * server could, then read through the Spring cache: a class outside the allowed packages is a
 * miss and is never instantiated (its constructor and setter would raise {@link Gadget#built});
 * the application's own classes (its {@code @AutoConfigurationPackage}) are read back; the
 * allowed-packages property adds packages.
 */
@ExtendWith(OutputCaptureExtension.class)
class JsonAllowedTypesTests {

    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    private static RedisClient client;

    private static StatefulRedisConnection<String, String> connection;

    private final String keyPrefix = UUID.randomUUID() + ":";

    private final ApplicationContextRunner contextRunner = ContextRunners.onRedis(redis, AdaptiveCacheSpringCacheAutoConfiguration.class)
            .withUserConfiguration(AllowListApplication.class)
            .withPropertyValues("adaptive-cache.cache.key-prefix=" + this.keyPrefix);

    @BeforeAll
    static void connect() {
        client = RedisClient.create(redis.uri());
        connection = client.connect();
    }

    @AfterAll
    static void disconnect() {
        connection.close();
        client.shutdown();
    }

    @BeforeEach
    void nothingBuiltYet() {
        Gadget.built = false;
    }

    @Test
    void aValueNamingAClassOutsideTheAllowedPackagesShouldBeAMissAndNeverBuilt(CapturedOutput output) {
        plant(1, Gadget.class.getName(), "{\"name\":\"planted-secret\"}");
        plant(2, Gadget.class.getName(), "{\"name\":\"planted-secret\"}");
        this.contextRunner.run(context -> {
            AllowListApplication.Catalog catalog = context.getBean(AllowListApplication.Catalog.class);

            assertThat(catalog.find(1)).isEqualTo(new AllowListApplication.Item(1, "item-1"));
            assertThat(catalog.find(2)).isEqualTo(new AllowListApplication.Item(2, "item-2"));

            assertThat(Gadget.built).as("the planted class was instantiated").isFalse();
            assertThat(catalog.lookups()).as("calls that missed the cache").isEqualTo(2);
            assertThat(serializer(context).refusedCount()).isEqualTo(2);
            // The miss was loaded and stored over the planted value: the next read is a hit of the application's own.
            assertThat(catalog.find(1)).isEqualTo(new AllowListApplication.Item(1, "item-1"));
            assertThat(catalog.lookups()).isEqualTo(2);
        });
        String log = output.toString();
        assertThat(log.split(Gadget.class.getName().replace(".", "\\."), -1)).as("WARN lines naming the class").hasSize(2);
        assertThat(log).contains("WARN").doesNotContain("planted-secret");
    }

    @Test
    void anArrayOfAClassOutsideTheAllowedPackagesShouldBeAMissAndNeverBuilt() {
        plant(1, Gadget[].class.getName(), "[{\"name\":\"planted\"}]");
        this.contextRunner.run(context -> {
            AllowListApplication.Catalog catalog = context.getBean(AllowListApplication.Catalog.class);

            assertThat(catalog.find(1)).isEqualTo(new AllowListApplication.Item(1, "item-1"));

            assertThat(Gadget.built).as("an element of the planted array was instantiated").isFalse();
            assertThat(catalog.lookups()).isEqualTo(1);
        });
    }

    @Test
    void aValueOfTheApplicationsOwnPackageShouldBeReadBack() {
        plant(1, AllowListApplication.Item.class.getName(), "{\"id\":1,\"name\":\"planted\"}");
        this.contextRunner.run(context -> {
            AllowListApplication.Catalog catalog = context.getBean(AllowListApplication.Catalog.class);

            assertThat(catalog.find(1)).isEqualTo(new AllowListApplication.Item(1, "planted"));
            assertThat(catalog.find(2)).isEqualTo(new AllowListApplication.Item(2, "item-2"));
            assertThat(catalog.find(2)).isEqualTo(new AllowListApplication.Item(2, "item-2"));

            assertThat(catalog.lookups()).as("calls that missed the cache").isEqualTo(1);
            assertThat(serializer(context).refusedCount()).isZero();
        });
    }

    @Test
    void theAllowedPackagesPropertyShouldAddPackages() {
        plant(1, Gadget.class.getName(), "{\"name\":\"planted\"}");
        this.contextRunner.withPropertyValues("adaptive-cache.cache.json.allowed-packages=" + Gadget.class.getPackageName())
                .run(context -> {
                    AllowListApplication.Catalog catalog = context.getBean(AllowListApplication.Catalog.class);

                    assertThat(catalog.find(1)).isInstanceOf(Gadget.class).extracting("name").isEqualTo("planted");

                    assertThat(Gadget.built).isTrue();
                    assertThat(catalog.lookups()).isZero();
                });
    }

    @Test
    void anAllowedPackageThatIsNoPackageNameShouldFailStartupNamingTheProperty() {
        this.contextRunner.withPropertyValues("adaptive-cache.cache.json.allowed-packages=com.example,com.example.*")
                .run(context -> {
                    assertThat(context).hasFailed();
                    assertThat(context.getStartupFailure()).rootCause()
                            .hasMessageContaining("adaptive-cache.cache.json.allowed-packages[1]").hasMessageContaining("com.example.*");
                });
    }

    /** Writes a value as the serializer would, under the key the cache reads for the id (the cache's generation is 0). */
    private void plant(int id, String type, String valueJson) {
        connection.sync().set(this.keyPrefix + "items:0:" + id, "{\"@type\":\"" + type + "\",\"value\":" + valueJson + "}");
    }

    private static JsonCacheValueSerializer serializer(ApplicationContext context) {
        return context.getBean(JsonCacheValueSerializer.class);
    }
}
