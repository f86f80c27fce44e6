package io.adaptivecache.redis;

import io.adaptivecache.contract.BadInputFuzzContract;
import io.adaptivecache.management.ManagedCacheTemplate;
import io.adaptivecache.strategy.StrategySpec;
import io.adaptivecache.testservers.RedisServerExtension;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Random input at Redis, whose keys are binary-safe; limits kept small so that the run stays quick. */
class RedisBadInputFuzzIntegrationTests extends BadInputFuzzContract {

    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    @Override
    protected ManagedCacheTemplate startTemplate(StrategySpec strategy) {
        return RedisCacheTemplates.builder().uri(redis.uri()).strategy(strategy).maxKeyBytes(512).maxValueBytes(64 * 1024)
                .start();
    }

    @Override
    protected boolean printableKeysOnly() {
        return false;
    }

    @Override
    protected long serverBytesRead() {
        return Long.parseLong(redis.server().info("stats", "total_net_input_bytes"));
    }
}
