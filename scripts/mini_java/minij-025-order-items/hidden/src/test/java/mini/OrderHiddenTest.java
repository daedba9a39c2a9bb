package mini;

import static org.junit.Assert.assertEquals;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.Test;

public class OrderHiddenTest {
    @Test
    public void branchingOrders() {
        Order base = Order.empty().withItem("tea");
        Order a = base.withItem("cake");
        Order b = base.withItem("scone");
        assertEquals(Arrays.asList("tea"), base.items());
        assertEquals(Arrays.asList("tea", "cake"), a.items());
        assertEquals(Arrays.asList("tea", "scone"), b.items());
    }

    @Test
    public void removingGivesANewOrder() {
        Order order = Order.empty().withItem("tea").withItem("cake").withItem("tea");
        Order less = order.withoutItem("tea");
        assertEquals(Arrays.asList("cake", "tea"), less.items());
        assertEquals(Arrays.asList("tea", "cake", "tea"), order.items());
    }

    @Test
    public void callersListIsNotShared() {
        List<String> mine = new ArrayList<>(Arrays.asList("milk"));
        Order order = new Order(mine);
        mine.add("sugar");
        mine.set(0, "cream");
        assertEquals(Arrays.asList("milk"), order.items());
    }

    @Test
    public void madeFromAnUnmodifiableList() {
        Order order = new Order(List.of("tea", "cake"));
        assertEquals(Arrays.asList("tea", "cake", "jam"), order.withItem("jam").items());
        assertEquals(Arrays.asList("cake"), order.withoutItem("tea").items());
    }
}
