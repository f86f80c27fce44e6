package io.adaptivecache.near;

import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class KeyPrefixesTests {

    @Test
    void aPrefixCoveredByAnotherIsDropped() {
        assertThat(KeyPrefixes.of(List.of("users:vip:", "users:", "orders:")).prefixes()).containsExactly("orders:", "users:");
    }

    @Test
    void noPrefixOrAnEmptyOneMeansEveryKey() {
        assertThat(KeyPrefixes.of(List.of()).isEveryKey()).isTrue();
        assertThat(KeyPrefixes.of(List.of("users:", "")).isEveryKey()).isTrue();
        assertThat(KeyPrefixes.EVERY_KEY.covers("anything")).isTrue();
    }

    @Test
    void coversKeysAndOtherSets() {
        KeyPrefixes users = KeyPrefixes.of(List.of("users:"));
        assertThat(users.covers("users:1")).isTrue();
        assertThat(users.covers("user:1")).isFalse();
        assertThat(users.covers(KeyPrefixes.of(List.of("users:vip:")))).isTrue();
        assertThat(users.covers(KeyPrefixes.of(List.of("users:", "orders:")))).isFalse();
        assertThat(users.covers(KeyPrefixes.EVERY_KEY)).isFalse();
        assertThat(KeyPrefixes.EVERY_KEY.covers(users)).isTrue();
    }

    @Test
    void theUnionIsReducedAndEqualSetsAreEqual() {
        KeyPrefixes union = KeyPrefixes.of(List.of("users:vip:")).union(KeyPrefixes.of(List.of("orders:", "users:")));
        assertThat(union).isEqualTo(KeyPrefixes.of(List.of("users:", "orders:")));
        assertThat(union.union(KeyPrefixes.EVERY_KEY)).isEqualTo(KeyPrefixes.EVERY_KEY);
    }
}
