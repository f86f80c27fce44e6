package io.adaptivecache.autoconfigure;

import io.adaptivecache.adaptive.SwitchEvent;
import org.springframework.context.ApplicationEvent;

/** Published when a cache template's connection strategy was switched, or a switch failed. */
public class CacheStrategySwitchedEvent extends ApplicationEvent {

    private static final long serialVersionUID = 1L;

    private final transient SwitchEvent switchEvent;

    /**
     * Creates an event.
     * @param source the publisher
     * @param switchEvent what happened
     */
    public CacheStrategySwitchedEvent(Object source, SwitchEvent switchEvent) {
        super(source);
        this.switchEvent = switchEvent;
    }

    /**
     * What happened: template, from, to, reason, evidence, outcome and timings, and for a failed switch its failure.
     * @return the switch
     */
    public SwitchEvent getSwitchEvent() {
        return this.switchEvent;
    }
}
