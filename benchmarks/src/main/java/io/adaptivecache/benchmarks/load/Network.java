package io.adaptivecache.benchmarks.load;

/** The path between client and server. */
public enum Network {

    /** Straight to the server over loopback. */
    LOOPBACK("loopback"),

    /** Through a proxy that holds every chunk for a fixed delay in each direction, standing in for a network. */
    DELAYED("delayed");

    private final String label;

    Network(String label) {
        this.label = label;
    }

    /** @return the name shown in reports */
    public String label() {
        return this.label;
    }
}
