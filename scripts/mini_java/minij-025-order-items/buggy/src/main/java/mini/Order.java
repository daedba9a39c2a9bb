package mini;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** A customer's order: a list of item codes that never changes once made. */
public final class Order {
    private final List<String> items;

    public Order(List<String> items) {
        this.items = items;
    }

    public static Order empty() {
        return new Order(new ArrayList<>());
    }

    /** A new order with {@code item} added at the end. */
    public Order withItem(String item) {
        List<String> next = items;
        next.add(item);
        return new Order(next);
    }

    /** A new order without the first {@code item} (the same items if there is none). */
    public Order withoutItem(String item) {
        List<String> next = items;
        next.remove(item);
        return new Order(next);
    }

    public List<String> items() {
        return Collections.unmodifiableList(items);
    }

    public int size() {
        return items.size();
    }
}
