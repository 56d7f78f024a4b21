// SPDX-License-Identifier: GPL-3.0-or-later
// Test oracle: prints Weka 3.6's class distributions for test rows with full double precision.
// Usage: java -cp weka.jar:DIR WekaOracle CLASSIFIER TRAIN.arff TEST.arff [options...]
//        java -cp weka.jar:DIR WekaOracle --model CLASSIFIER TRAIN.arff [options...]   (prints the model)
//        java -cp weka.jar:DIR WekaOracle --attribute-eval EVALUATOR TRAIN.arff [options...]
//             (one line per attribute: the evaluator's merit, full precision)
import weka.classifiers.Classifier;
import weka.core.Instances;
import weka.core.Utils;
import java.io.BufferedReader;
import java.io.FileReader;

public class WekaOracle {
    public static void main(String[] args) throws Exception {
        if (args[0].equals("--attribute-eval")) {
            Instances data = new Instances(new BufferedReader(new FileReader(args[2])));
            data.setClassIndex(data.numAttributes() - 1);
            String[] opts = new String[args.length - 3];
            System.arraycopy(args, 3, opts, 0, opts.length);
            weka.attributeSelection.ASEvaluation e = weka.attributeSelection.ASEvaluation.forName(args[1], opts);
            e.buildEvaluator(data);
            StringBuilder sb = new StringBuilder();
            for (int i = 0; i < data.numAttributes() - 1; i++) {
                sb.append(Double.toString(((weka.attributeSelection.AttributeEvaluator) e).evaluateAttribute(i))).append('\n');
            }
            System.out.print(sb);
            return;
        }
        if (args[0].equals("--model")) {
            Instances data = new Instances(new BufferedReader(new FileReader(args[2])));
            data.setClassIndex(data.numAttributes() - 1);
            String[] opts = new String[args.length - 3];
            System.arraycopy(args, 3, opts, 0, opts.length);
            Classifier c = Classifier.forName(args[1], opts);
            c.buildClassifier(data);
            System.out.print(c.toString());
            return;
        }
        Instances train = new Instances(new BufferedReader(new FileReader(args[1])));
        Instances test = new Instances(new BufferedReader(new FileReader(args[2])));
        train.setClassIndex(train.numAttributes() - 1);
        test.setClassIndex(test.numAttributes() - 1);
        String[] opts = new String[args.length - 3];
        System.arraycopy(args, 3, opts, 0, opts.length);
        Classifier c = Classifier.forName(args[0], opts);
        c.buildClassifier(train);
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < test.numInstances(); i++) {
            double[] d = c.distributionForInstance(test.instance(i));
            for (int j = 0; j < d.length; j++) {
                if (j > 0) sb.append(' ');
                sb.append(Double.toString(d[j]));
            }
            sb.append('\n');
        }
        System.out.print(sb);
    }
}
