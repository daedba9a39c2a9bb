package mini;

/** Measurements of binary trees; the empty tree is null. */
public final class Trees {
    private Trees() {}

    /** Number of levels: 0 for the empty tree, 1 for a single node. */
    public static int depth(TreeNode node) {
        if (node.left == null && node.right == null) {
            return 1;
        }
        return 1 + Math.max(depth(node.left), depth(node.right));
    }

    /** Number of nodes. */
    public static int size(TreeNode node) {
        if (node == null) {
            return 0;
        }
        return 1 + size(node.left) + size(node.right);
    }

    /** Sum of the values of all nodes. */
    public static int sum(TreeNode node) {
        if (node == null) {
            return 0;
        }
        return node.value + sum(node.left) + sum(node.right);
    }
}
