package io.adaptivecache.adaptive;

/** Hears of every switch a {@link StrategySwitcher} carries out or attempts, on the switcher's thread. */
@FunctionalInterface
public interface SwitchListener {

    /** Hears nothing. */
    SwitchListener NONE = event -> {
    };

    /**
     * A switch happened or failed.
     * @param event what happened
     */
    void onSwitch(SwitchEvent event);
}
