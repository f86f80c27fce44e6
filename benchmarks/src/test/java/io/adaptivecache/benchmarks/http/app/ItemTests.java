package io.adaptivecache.benchmarks.http.app;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

class ItemTests {

    @Test
    void anItemIsAboutAKilobyteOfJson() {
        JsonMapper json = JsonMapper.builder().build();

        for (long id : new long[] { 0, 42, Item.KEYS - 1 }) {
            assertThat(json.writeValueAsBytes(Item.of(id)).length).as("item %d", id).isBetween(900, 1200);
        }
    }

    @Test
    void theSameIdMakesTheSameItemAndAnotherIdAnotherOne() {
        assertThat(Item.of(7)).isEqualTo(Item.of(7)).isNotEqualTo(Item.of(8));
        assertThat(Item.of(7).id()).isEqualTo(7);
    }

    @Test
    void anItemSurvivesJavaSerializationAsBootsRedisCacheManagerStoresIt() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(Item.of(3));
        }
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            assertThat(in.readObject()).isEqualTo(Item.of(3));
        }
    }
}
