package mini;

import static org.junit.Assert.assertEquals;

import java.util.Arrays;
import org.junit.Test;

public class TaskQueueTest {
    @Test
    public void ordinaryPriorities() {
        TaskQueue q = new TaskQueue();
        q.add(new Task("backup", 1));
        q.add(new Task("deploy", 5));
        q.add(new Task("report", 3));
        assertEquals(Arrays.asList("deploy", "report", "backup"), q.order());
    }

    @Test
    public void lowestPossiblePriorityRunsLast() {
        TaskQueue q = new TaskQueue();
        q.add(new Task("cleanup", Integer.MIN_VALUE));
        q.add(new Task("email", 2));
        assertEquals(Arrays.asList("email", "cleanup"), q.order());
    }
}
