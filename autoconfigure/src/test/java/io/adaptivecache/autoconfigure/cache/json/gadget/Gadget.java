package io.adaptivecache.autoconfigure.cache.json.gadget;

/**
 * A class outside the test application's packages that records being built: its constructor and
 * setter raise {@link #built}, so a test sees whether a cache read instantiated it.
 */
public class Gadget {

    /** Raised by the constructor and the setter. */
    public static volatile boolean built;

    private String name = "";

    /** Builds one, and says so. */
    public Gadget() {
        built = true;
    }

    /**
     * The name.
     * @return the name
     */
    public String getName() {
        return this.name;
    }

    /**
     * Sets the name, and says it was built.
     * @param name the name
     */
    public void setName(String name) {
        built = true;
        this.name = name;
    }
}
