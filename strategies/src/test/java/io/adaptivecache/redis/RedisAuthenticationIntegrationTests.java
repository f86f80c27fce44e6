package io.adaptivecache.redis;

import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;

import io.adaptivecache.CacheAuthenticationException;
import io.adaptivecache.CacheException;
import io.adaptivecache.devservers.RedisServer;
import io.adaptivecache.management.ManagedCacheTemplate;
import io.adaptivecache.strategy.PoolSettings;
import io.adaptivecache.strategy.StrategySpec;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * A server that refuses the credentials, on Lettuce and on the Jedis POOLED driver: at startup, and while running when
 * the user's password is changed and the connections are killed so that they reconnect. The failure is a
 * {@link CacheAuthenticationException} quoting the server (WRONGPASS, NOAUTH), naming the user and where the
 * credentials were configured, never the password. That the server really refused is read from its ACL LOG.
 */
class RedisAuthenticationIntegrationTests {

    private static final String PASSWORD = "right-" + UUID.randomUUID();
    private static final String SOURCE = "the test's credentials";

    private static final RedisServer acl = RedisServer.withArguments("--user", "alice", "on", ">" + PASSWORD, "~*", "&*", "+@all");
    private static final RedisServer open = new RedisServer();

    private ManagedCacheTemplate template;

    @BeforeAll
    static void startServers() {
        acl.start();
        open.start();
    }

    @AfterAll
    static void stopServers() {
        acl.stop();
        open.stop();
    }

    @BeforeEach
    void resetServers() {
        acl.command("ACL", "SETUSER", "alice", "on", "resetpass", ">" + PASSWORD);
        acl.command("ACL", "LOG", "RESET");
        open.command("CONFIG", "SET", "requirepass", "");
    }

    @AfterEach
    void closeTemplate() {
        if (this.template != null) {
            this.template.close();
        }
        acl.command("ACL", "SETUSER", "alice", "on", "resetpass", ">" + PASSWORD);
        open.command("CONFIG", "SET", "requirepass", "");
    }

    private static RedisCacheTemplates.Builder builder(String uri, RedisDriver driver) {
        return RedisCacheTemplates.builder().uri(uri).pooledDriver(driver)
                .strategy(driver == RedisDriver.JEDIS ? StrategySpec.pooled(PoolSettings.ofSize(2)) : StrategySpec.single())
                .connectTimeout(Duration.ofSeconds(1)).commandTimeout(Duration.ofSeconds(1)).maxReconnectDelay(Duration.ofMillis(100))
                .credentialsSource(SOURCE);
    }

    @ParameterizedTest
    @EnumSource(RedisDriver.class)
    void aWrongPasswordShouldFailStartupAsTheServersRefusalNamingTheUserNotThePassword(RedisDriver driver) {
        String wrong = "wrong-" + UUID.randomUUID();

        assertThatThrownBy(() -> this.template = builder("redis://alice:" + wrong + "@" + acl.address(), driver).start())
                .isInstanceOfSatisfying(CacheAuthenticationException.class, refused -> {
                    assertThat(refused.user()).isEqualTo("alice");
                    assertThat(refused.reason()).startsWith("WRONGPASS");
                    assertThat(refused.credentialsSource()).isEqualTo(SOURCE);
                    assertThat(refused.getMessage()).contains("refused the credentials of user 'alice'").contains("WRONGPASS")
                            .contains("check " + SOURCE).doesNotContain(wrong).doesNotContain(PASSWORD);
                });
        assertThat(authFailuresLogged("alice")).as("the server's ACL LOG holds the refused AUTH").isPositive();
    }

    @ParameterizedTest
    @EnumSource(RedisDriver.class)
    void aPasswordChangedWhileRunningShouldFailCallsAsTheServersRefusalOnceTheConnectionsReconnect(RedisDriver driver) {
        this.template = builder("redis://alice:" + PASSWORD + "@" + acl.address(), driver).start();
        this.template.set("auth:k", new byte[] { 1 }, Duration.ZERO);
        String rotated = "rotated-" + UUID.randomUUID();

        acl.command("ACL", "SETUSER", "alice", "resetpass", ">" + rotated);
        acl.command("CLIENT", "KILL", "USER", "alice");

        CacheAuthenticationException refused = awaitRefusal();
        assertThat(refused.user()).isEqualTo("alice");
        assertThat(refused.reason()).startsWith("WRONGPASS");
        // Lettuce reconnects in the background and then only says "not connected"; Jedis's pool opens a new connection.
        assertThat(refused.getMessage()).contains("user 'alice'").contains("check " + SOURCE).doesNotContain(PASSWORD)
                .doesNotContain(rotated).contains(driver == RedisDriver.LETTUCE ? "when reconnecting" : "when connecting");
        assertThat(authFailuresLogged("alice")).as("the server refused the reconnect's AUTH").isPositive();

        // Give the password back: the template recovers by itself, and calls are no longer reported as refused.
        acl.command("ACL", "SETUSER", "alice", "resetpass", ">" + PASSWORD);
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(50)).ignoreExceptions()
                .untilAsserted(() -> assertThat(this.template.get("auth:k")).containsExactly(1));
    }

    @ParameterizedTest
    @EnumSource(RedisDriver.class)
    void aPasswordRequiredWhileRunningShouldFailCallsNamingTheDefaultUser(RedisDriver driver) {
        this.template = builder("redis://" + open.address(), driver).start();
        this.template.set("auth:k", new byte[] { 2 }, Duration.ZERO);

        open.command("CONFIG", "SET", "requirepass", "now-required-" + UUID.randomUUID());
        open.command("CLIENT", "KILL", "TYPE", "normal", "SKIPME", "yes");

        CacheAuthenticationException refused = awaitRefusal();
        assertThat(refused.user()).isNull();
        assertThat(refused.reason()).startsWith("NOAUTH");
        assertThat(refused.getMessage()).contains("the default user").contains("NOAUTH").contains("check " + SOURCE);
    }

    @org.junit.jupiter.api.Test
    void aServerThatGoesDownAfterRefusingShouldBeReportedAsUnreachableNotAsRefusing() {
        this.template = builder("redis://alice:" + PASSWORD + "@" + acl.address(), RedisDriver.LETTUCE).start();
        acl.command("ACL", "SETUSER", "alice", "resetpass", ">rotated-" + UUID.randomUUID());
        acl.command("CLIENT", "KILL", "USER", "alice");
        awaitRefusal();

        acl.kill();
        try {
            // The reconnects now fail to connect at all: the remembered refusal must not outlive them.
            await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(50)).until(() -> {
                try {
                    this.template.get("auth:k");
                    return false;
                }
                catch (CacheException ex) {
                    return !(ex instanceof CacheAuthenticationException) && ex instanceof io.adaptivecache.CacheConnectionException;
                }
            });
        }
        finally {
            acl.restart();
        }
    }

    /** Calls until one fails as a refusal of the credentials; the connections reconnect in the background. */
    private CacheAuthenticationException awaitRefusal() {
        AtomicReference<CacheException> last = new AtomicReference<>();
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(50)).until(() -> {
            try {
                this.template.get("auth:k");
                return false;
            }
            catch (CacheException ex) {
                last.set(ex);
                return ex instanceof CacheAuthenticationException;
            }
        });
        return (CacheAuthenticationException) last.get();
    }

    /** The refused AUTHs for a user in the server's ACL LOG (reset before each test). */
    private static int authFailuresLogged(String user) {
        List<String> fields = List.of(acl.command("ACL", "LOG").split("\n"));
        int refused = 0;
        for (int i = 0; i + 1 < fields.size(); i++) {
            if (fields.get(i).equals("reason") && fields.get(i + 1).equals("auth") && userOfEntry(fields, i).equals(user)) {
                refused++;
            }
        }
        return refused;
    }

    private static String userOfEntry(List<String> fields, int from) {
        for (int i = from; i + 1 < fields.size(); i++) {
            if (fields.get(i).equals("username")) {
                return fields.get(i + 1);
            }
        }
        return "";
    }
}
