package io.adaptivecache.memcached;

import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;

import io.adaptivecache.testservers.Allocations;
import net.spy.memcached.DefaultHashAlgorithm;
import net.spy.memcached.KetamaNodeLocator;
import net.spy.memcached.MemcachedNode;
import net.spy.memcached.NodeLocator;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class OneServerLocatorTests {

    @Test
    void aRingOfOneServerShouldFindItWithoutHashingTheKey() {
        List<MemcachedNode> one = WeightedKetamaRingTests.nodes(1);
        NodeLocator locator = factory(one).createLocator(one);
        String[] keys = keys();
        int[] next = { 0 };

        // spymemcached's ring clones an MD5 digest and boxes the hash for every key: some 300 bytes a lookup.
        double bytes = Allocations.bytesPerCall(200_000, () -> locator.getPrimary(keys[next[0]++ & 1023]));

        assertThat(bytes).isLessThan(16);
        for (String key : keys) {
            assertThat(locator.getPrimary(key)).isSameAs(one.get(0));
        }
    }

    @Test
    void aRingOfSeveralServersShouldBeSpymemcachedsOwn() {
        List<MemcachedNode> three = WeightedKetamaRingTests.nodes(3);
        NodeLocator locator = factory(three).createLocator(three);
        KetamaNodeLocator reference = new KetamaNodeLocator(three, DefaultHashAlgorithm.KETAMA_HASH);

        assertThat(locator).isInstanceOf(KetamaNodeLocator.class);
        for (String key : keys()) {
            assertThat(locator.getPrimary(key)).isSameAs(reference.getPrimary(key));
        }
    }

    @Test
    void aRingOfOneServerUpdatedToSeveralShouldHashAgain() {
        List<MemcachedNode> three = WeightedKetamaRingTests.nodes(3);
        NodeLocator locator = factory(three).createLocator(three.subList(0, 1));
        KetamaNodeLocator reference = new KetamaNodeLocator(three, DefaultHashAlgorithm.KETAMA_HASH);

        locator.updateLocator(three);

        long spread = java.util.Arrays.stream(keys()).map(locator::getPrimary).distinct().count();
        assertThat(spread).isEqualTo(3);
        for (String key : keys()) {
            assertThat(locator.getPrimary(key)).isSameAs(reference.getPrimary(key));
        }
    }

    private static WeightedKetamaConnectionFactory factory(List<MemcachedNode> nodes) {
        Map<InetSocketAddress, Integer> weights = new java.util.HashMap<>();
        nodes.forEach(node -> weights.put((InetSocketAddress) node.getSocketAddress(), 1));
        return new WeightedKetamaConnectionFactory(null, weights);
    }

    private static String[] keys() {
        String[] keys = new String[1024];
        for (int i = 0; i < keys.length; i++) {
            keys[i] = "user:" + i;
        }
        return keys;
    }
}
