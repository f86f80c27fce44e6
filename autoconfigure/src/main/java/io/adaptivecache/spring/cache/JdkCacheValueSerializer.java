package io.adaptivecache.spring.cache;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.Serializable;

import org.springframework.core.ConfigurableObjectInputStream;

/** Java serialization; cached values must be {@link Serializable}. */
public class JdkCacheValueSerializer implements CacheValueSerializer {

    private final ClassLoader classLoader;

    /**
     * Creates a serializer.
     * @param classLoader resolves classes while reading
     */
    public JdkCacheValueSerializer(ClassLoader classLoader) {
        this.classLoader = classLoader;
    }

    @Override
    public byte[] serialize(Object value) {
        if (!(value instanceof Serializable)) {
            throw new IllegalArgumentException("Cannot cache " + value.getClass().getName()
                    + " with JDK serialization: it is not Serializable (or set adaptive-cache.cache.serializer=json)");
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(256);
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(value);
        }
        catch (IOException ex) {
            throw new IllegalArgumentException("Cannot serialize " + value.getClass().getName(), ex);
        }
        return bytes.toByteArray();
    }

    @Override
    public Object deserialize(byte[] bytes) {
        try (ObjectInputStream in = new ConfigurableObjectInputStream(new ByteArrayInputStream(bytes), this.classLoader)) {
            return in.readObject();
        }
        catch (IOException | ClassNotFoundException ex) {
            throw new IllegalArgumentException("Cannot deserialize a cached value", ex);
        }
    }
}
